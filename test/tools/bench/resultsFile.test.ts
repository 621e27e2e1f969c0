import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { measuredCommit, resultsPath } from '../../../tools/bench/resultsFile';

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

describe('measuredCommit', () => {
	it('names the checked-out commit, marked once a tracked file changes, not for an untracked one', () => {
		const repository = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-commit-'));
		const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd: repository, encoding: 'utf8' }).trim();
		git('init', '-q');
		fs.writeFileSync(path.join(repository, 'a.txt'), 'one');
		git('add', 'a.txt');
		git('commit', '-q', '-m', 'one');
		const head = git('rev-parse', '--short', 'HEAD');
		fs.writeFileSync(path.join(repository, 'smoke-results.md'), 'untracked');
		expect(measuredCommit(repository)).toBe(head);
		fs.writeFileSync(path.join(repository, 'a.txt'), 'two');
		expect(measuredCommit(repository)).toBe(`${head} with uncommitted changes`);
		fs.rmSync(repository, { recursive: true });
	});
});
