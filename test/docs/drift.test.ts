import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { repoRoot } from '../../tools/common/paths';
import {
	changelogProblems,
	commandProblems,
	linkProblems,
	packageLinkProblems,
	packageLinks,
	pictureProblems,
	quoteProblems,
	repoFacts,
	repoPages,
	versionProblems,
} from '../helpers/docsDrift';

// The docs against the code, every page of docs/ as it comes (the rules: test/helpers/docsDrift.ts).
const tags = () => new Set(execFileSync('git', ['tag', '--list', 'v*'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean));

describe('the docs say nothing the code contradicts', () => {
	const facts = repoFacts(tags());
	const pages = repoPages(repoRoot);

	it('reads README.md, CHANGELOG.md and every page in docs/', () => {
		const docs = fs.readdirSync(path.join(repoRoot, 'docs')).filter((file) => file.endsWith('.md'));
		expect(pages.map((page) => page.file).sort()).toEqual(['CHANGELOG.md', 'README.md', ...docs.map((file) => `docs/${file}`)].sort());
	});

	it.each([
		['links and anchors', linkProblems],
		['npm scripts and shell commands', commandProblems],
		['n8n and Node versions and ranges', versionProblems],
		['quoted messages, markers and option names', quoteProblems],
		['pictures', pictureProblems],
	])('in %s', (_, rule) => {
		expect(rule(pages, facts)).toEqual([]);
	});

	it("in the oldest n8n: the nodes' own check and the message the docs quote name engines.n8n's lower bound", () => {
		// The version the node names when it refuses to load in an n8n without NodeConnectionTypes.
		let refusal = '';
		jest.doMock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), NodeConnectionTypes: undefined }));
		jest.isolateModules(() => {
			try {
				jest.requireActual('../../nodes/VideoPlatform/VideoPlatformTrigger.node');
			} catch (error) {
				refusal = (error as Error).message;
			}
		});
		jest.dontMock('n8n-workflow');
		expect(/^>=(\S+)/.exec(facts.engines.n8n)?.[1]).toBe(/needs n8n (\S+) or newer/.exec(refusal)?.[1]);
	});

	it('in the changelog', () => {
		expect(changelogProblems(pages.find((page) => page.file === 'CHANGELOG.md')!, facts)).toEqual([]);
	});

	it("in the package's own links: the credentials' documentationUrl and the codex files'", () => {
		const { homepage } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
		expect(packageLinks().length).toBeGreaterThanOrEqual(6);
		expect(packageLinkProblems(packageLinks(), homepage, facts)).toEqual([]);
	});
});
