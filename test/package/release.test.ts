import * as fs from 'node:fs';
import * as path from 'node:path';

import { parse } from 'yaml';

import { repoRoot } from '../../tools/common/paths';

type Step = { run?: string; uses?: string; with?: Record<string, unknown> };
type Job = { needs?: string | string[]; permissions?: Record<string, string>; steps: Step[] };

const workflow = parse(fs.readFileSync(path.join(repoRoot, '.github/workflows/release.yml'), 'utf8')) as {
	on: { push: { tags: string[] } };
	jobs: Record<string, Job>;
};
const runs = (job: Job) => job.steps.map((step) => step.run ?? '').join('\n');

describe('release workflow (it cannot run here, so its key steps are checked)', () => {
	it('runs on version tags only', () => {
		expect(workflow.on).toEqual({ push: { tags: ['v*.*.*'] } });
	});

	it('runs the README test command before publishing', () => {
		expect(runs(workflow.jobs.test)).toContain('npm ci && npm test');
		expect(workflow.jobs.publish.needs).toBe('test');
	});

	it('publishes with provenance and the id-token permission', () => {
		expect(runs(workflow.jobs.publish)).toMatch(/npm publish --provenance/);
		expect(workflow.jobs.publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
	});

	it('has a changelog entry for the version in package.json', () => {
		const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
		expect(fs.readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8')).toContain(`## ${version}`);
	});
});
