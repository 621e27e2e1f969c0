import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { measuredCommit, measuredOn, resultsPath } from '../../../tools/bench/resultsFile';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

describe('resultsPath', () => {
	const saved = process.env.BENCH_RESULTS_DIR;
	afterEach(() => {
		if (saved === undefined) delete process.env.BENCH_RESULTS_DIR;
		else process.env.BENCH_RESULTS_DIR = saved;
	});

	it('is under bench/ in the repository by default', () => {
		delete process.env.BENCH_RESULTS_DIR;
		expect(resultsPath('queue-results.md')).toBe(path.join(repoRoot, 'bench', 'queue-results.md'));
	});

	it('is under BENCH_RESULTS_DIR when set, which it makes', () => {
		const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-results-')), 'smoke');
		process.env.BENCH_RESULTS_DIR = dir;
		expect(resultsPath('trigger-results.md')).toBe(path.join(dir, 'trigger-results.md'));
		expect(fs.statSync(dir).isDirectory()).toBe(true);
		fs.rmSync(path.dirname(dir), { recursive: true });
	});
});

/** A repository of one commit, and git run in it. */
function oneCommit() {
	const repository = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-commit-'));
	const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd: repository, encoding: 'utf8' }).trim();
	git('init', '-q');
	fs.writeFileSync(path.join(repository, 'a.txt'), 'one');
	git('add', 'a.txt');
	git('commit', '-q', '-m', 'one');
	return { repository, head: git('rev-parse', '--short', 'HEAD') };
}

describe('measuredCommit', () => {
	it('names the checked-out commit, marked once a tracked file changes, not for an untracked one', () => {
		const { repository, head } = oneCommit();
		fs.writeFileSync(path.join(repository, 'smoke-results.md'), 'untracked');
		expect(measuredCommit(repository)).toBe(head);
		fs.writeFileSync(path.join(repository, 'a.txt'), 'two');
		expect(measuredCommit(repository)).toBe(`${head} with uncommitted changes`);
		fs.rmSync(repository, { recursive: true });
	});
});

describe('measuredOn', () => {
	it("names today's date, this machine's cores, processor and memory, and the commit", () => {
		const { repository, head } = oneCommit();
		const cpus = os.cpus();
		const memory = `${(os.totalmem() / 2 ** 30).toFixed(0)} GB`;
		expect(measuredOn(repository)).toBe(`${new Date().toISOString().slice(0, 10)}, ${cpus.length} cores (${cpus[0].model.trim()}), ${memory}, commit ${head}`);
		fs.rmSync(repository, { recursive: true });
	});
});
