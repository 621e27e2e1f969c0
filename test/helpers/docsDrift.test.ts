import type { Facts, Page } from './docsDrift';
import {
	WILDCARD,
	anchors,
	changelogProblems,
	commandProblems,
	linkProblems,
	optionNamesOf,
	packageLinkProblems,
	pictureProblems,
	quoteProblems,
	slug,
	textsIn,
	versionProblems,
} from './docsDrift';

// Each rule of the docs' drift check, shown failing on a contradiction planted in a few lines and
// passing on the same lines made true.

const files: Record<string, string> = {
	'README.md': '# Title\n\n## Install in n8n\n\n## Credentials\n',
	'docs/guide.md': "# Guide\n\n## n8n's outbound protection (SSRF)\n\n## Room → Create\n\n## Room → Create\n",
	'LICENSE': 'MIT',
};

const facts: Facts = {
	read: (file) => files[file],
	exists: (file) => file in files || file === 'docs' || file === 'examples',
	scripts: new Set(['build', 'test', 'bench:load']),
	packageVersion: '0.1.0',
	engines: { n8n: '>=1.85.4 <3', node: '>=20.15' },
	programs: new Set(['node', 'npm', 'npx', 'jest', 'tsc']),
	n8nVersions: new Map([
		['2.41.3', {}],
		['2.41.1', { node: 24 }],
		['1.85.4', { node: 20 }],
	]),
	optionNames: new Map([
		['Room', new Set(['Create'])],
		['Options', new Set(['Delivery ID Field', 'Max Concurrent Requests'])],
	]),
	catalogue: [`The platform rejected the API key (HTTP 401) [item ${WILDCARD}]`, '[redacted]', 'Bearer [redacted]'],
	releaseTags: new Set(),
	pictureTakers: new Map([
		['test/e2e/browser.e2e.test.ts', new Set(['node-creator-search.png'])],
		['test/e2e/firstRun.e2e.test.ts', new Set(['first-run-room.png'])],
	]),
};

const page = (text: string, file = 'docs/page.md'): Page[] => [{ file, text }];

describe('slug and anchors, as GitHub makes them', () => {
	it('drops punctuation but - and _, keeps letters of any script, and numbers repeats', () => {
		expect(slug("n8n's outbound protection (SSRF)")).toBe('n8ns-outbound-protection-ssrf');
		expect(slug('The public webhook address (WEBHOOK_URL)')).toBe('the-public-webhook-address-webhook_url');
		expect(slug('Room → Create')).toBe('room--create');
		expect(slug('`npm start` and [the sandbox](sandbox.md)')).toBe('npm-start-and-the-sandbox');
		expect(slug('Über Größe')).toBe('über-größe');
		expect([...anchors(files['docs/guide.md'])]).toEqual(['guide', 'n8ns-outbound-protection-ssrf', 'room--create', 'room--create-1']);
	});

	it('reads no heading inside a code block', () => {
		expect(anchors('```sh\n# every process\n```\n## Real\n')).toEqual(new Set(['real']));
	});
});

describe('links', () => {
	it('fail on a missing file and on an anchor that is no heading', () => {
		const problems = linkProblems(page('[a](guide.md#room--create-2) [b](../LICENCE) [c](#nowhere)\n# Here'), facts);
		expect(problems).toEqual([
			expect.stringContaining('#room--create-2, which is no heading of docs/guide.md'),
			expect.stringContaining('points at LICENSE'.replace('LICENSE', 'LICENCE')),
			expect.stringContaining('#nowhere, which is no heading of docs/page.md'),
		]);
	});

	it('pass when each resolves, relative to the page, and leave outside addresses alone', () => {
		const text = "[a](guide.md#n8ns-outbound-protection-ssrf) [b](../README.md#credentials) [c](#here) [d](../examples/) [e](https://n8n.io/#x)\n# Here\n```\n[f](nowhere.md)\n```";
		expect(linkProblems(page(text), facts)).toEqual([]);
	});
});

describe('commands', () => {
	it('fail on an npm script that package.json lacks, and on a program the setup does not install', () => {
		const text = 'Run `npm run bench:lod`.\n\n```bash\nnpm ci && curl -s http://x | jq .\nnpx tsx run.ts\n```\n';
		expect(commandProblems(page(text), facts)).toEqual([
			expect.stringContaining('`npm run bench:lod` names no script'),
			expect.stringContaining('runs curl'),
			expect.stringContaining('runs jq'),
			expect.stringContaining('runs tsx, which is not in node_modules/.bin'),
		]);
	});

	it('pass on scripts, npm, node, installed programs, variables before a command and comments', () => {
		const text = '`npm run bench:load`\n\n```sh\nN8N_X=true\nA=\'1 2\' npm run build   # builds | then\nnpx jest test/x.test.ts && node tools/x.js; tsc \\\n  -p .\n```\n\n```json\n{ "curl": 1 }\n```\n';
		expect(commandProblems(page(text), facts)).toEqual([]);
	});
});

describe('versions', () => {
	it('fail on an n8n or Node version, a major or a range that versions.js and package.json do not hold', () => {
		const text = 'Tested on n8n 1.82.3 and n8n 2.40, Node 22, and n8n 4.x. Supported: `>=1.85.4 <4`.';
		expect(versionProblems(page(text), facts)).toEqual([
			expect.stringContaining('n8n 1.82.3 is not in tools/install/versions.js'),
			expect.stringContaining('n8n 2.40 matches no version'),
			expect.stringContaining('n8n 4.x'),
			expect.stringContaining('Node 22'),
			expect.stringContaining('the range >=1.85.4 <4'),
		]);
	});

	it('fail on a version table that differs from versions.js: a version it cannot install, another Node, one left out', () => {
		const text = '| n8n | Node.js | Tested |\n|---|---|---|\n| 2.41.3 | 24 | all |\n| 2.41.1 | 20 | all |\n';
		expect(versionProblems(page(text), facts)).toEqual([
			expect.stringContaining('lists n8n 2.41.3, which tools/install/versions.js cannot install'),
			expect.stringContaining('gives n8n 2.41.1 Node 20; tools/install/versions.js says 24'),
			expect.stringContaining('leaves out n8n 1.85.4'),
		]);
	});

	it('pass on the versions and ranges they hold, the next major, and other packages\' versions', () => {
		const text = 'n8n 2.41.1, n8n 2.41 and n8n 2.x on Node 24 or Node 20; not n8n 2.41.3; n8n 3.0 and n8n 3.x later. `>=1.85.4 <3`, `>=20.15`, node <= 1.15x, <3 %. n8n-core 2.41.1, `n8n 9.9.9` in code.\n\n| n8n | Node.js |\n|---|---|\n| 2.41.1 | 24 |\n| 1.85.4 | 20 |\n';
		expect(versionProblems(page(text), facts)).toEqual([]);
	});
});

describe('quoted texts', () => {
	it("fail on a message quoted otherwise than the package says, a marker it does not have, and an option the editor lacks", () => {
		const text = '*The platform rejected the API key (HTTP 403)* shows `[key redacted]`. Set **Options → Delivery Id Field**, then **Room → Delete**.';
		expect(quoteProblems(page(text), facts)).toEqual([
			expect.stringContaining('"The platform rejected the API key (HTTP 403)" is not what the package says'),
			expect.stringContaining('the marker [key redacted]'),
			expect.stringContaining('no "Delivery Id Field" under "Options"'),
			expect.stringContaining('no "Delete" under "Room"'),
		]);
	});

	it("pass on the package's words (cut short, or with what n8n adds), its markers, its options, and others' texts", () => {
		const text =
			'*The platform rejected the API key (HTTP 401) [item 3]*, or "The platform rejected the API key …". Errors show `[redacted]`, JavaScript `[object Object]`. ' +
			'**Options → Max Concurrent Requests**, **Room → Create**, **Settings → On Error → Continue**, *Couldn\'t connect with these settings*.';
		expect(quoteProblems(page(text), facts)).toEqual([]);
	});
});

describe('the changelog', () => {
	it('fails when its newest heading is an unpublished version, and on a dated version without its release tag', () => {
		expect(changelogProblems({ file: 'CHANGELOG.md', text: '# Changelog\n\n## 0.2.0\n\n## 0.1.0 (2026-11-22)\n' }, facts)).toEqual([
			expect.stringContaining('its newest heading "0.2.0" is neither "Unreleased" nor package.json\'s version 0.1.0'),
			expect.stringContaining('"0.1.0 (2026-11-22)" dates a release, and there is no tag v0.1.0'),
		]);
	});

	it('passes on Unreleased, or on the version once its tag exists', () => {
		expect(changelogProblems({ file: 'CHANGELOG.md', text: '## Unreleased\n\n- x\n' }, facts)).toEqual([]);
		expect(changelogProblems({ file: 'CHANGELOG.md', text: '## 0.1.0 (2026-11-22)\n' }, { ...facts, releaseTags: new Set(['v0.1.0']) })).toEqual([]);
	});
});

describe('pictures', () => {
	it("fail on a picture no test takes, and on one taken by another test than the one the page names as its walk", () => {
		const text = 'The walk is `test/e2e/firstRun.e2e.test.ts`.\n\n![a](first-run-room.png)\n![b](node-creator-search.png)\n![c](drawn-by-hand.png)\n';
		expect(pictureProblems(page(text), facts)).toEqual([
			expect.stringContaining('node-creator-search.png is taken by test/e2e/browser.e2e.test.ts, not by test/e2e/firstRun.e2e.test.ts'),
			expect.stringContaining('no end-to-end test takes drawn-by-hand.png'),
		]);
	});

	it('pass when each is taken by a test, by the walk where the page names one', () => {
		expect(pictureProblems(page('![b](node-creator-search.png)'), facts)).toEqual([]);
		const other = { ...facts, pictureTakers: new Map([...facts.pictureTakers, ['test/e2e/queue.e2e.test.ts', new Set<string>()]]) };
		expect(pictureProblems(page('`test/e2e/queue.e2e.test.ts` ![b](node-creator-search.png)'), other)).toEqual([]);
		expect(pictureProblems(page('`test/e2e/firstRun.e2e.test.ts`: ![a](first-run-room.png)'), facts)).toEqual([]);
	});
});

describe("the package's own links", () => {
	const homepage = 'https://github.com/o/p#readme';

	it('fail on a heading that is gone, a file that is not there, and another repository', () => {
		const links = [
			{ from: 'credential a', url: 'https://github.com/o/p#develop' },
			{ from: 'codex b', url: 'https://github.com/o/p/blob/main/docs/gone.md' },
			{ from: 'codex c', url: 'https://github.com/other/p#credentials' },
		];
		expect(packageLinkProblems(links, homepage, facts)).toEqual([
			expect.stringContaining('#develop, which is no heading of README.md'),
			expect.stringContaining('docs/gone.md, which does not exist'),
			expect.stringContaining('is not in this repository'),
		]);
	});

	it('pass on the README\'s headings and a page\'s', () => {
		const links = [
			{ from: 'a', url: 'https://github.com/o/p#credentials' },
			{ from: 'b', url: 'https://github.com/o/p/blob/main/docs/guide.md#room--create' },
		];
		expect(packageLinkProblems(links, homepage, facts)).toEqual([]);
	});
});

describe('reading the facts from source', () => {
	it('takes every text of a TypeScript file, interpolations as wildcards, comments left out', () => {
		const source = "// the node's words\nconst a = 'one';\nconst b = `two ${a} three`;\nconst c = \"four\"; /* 'five' */";
		expect(textsIn(source)).toEqual(['one', `two ${WILDCARD} three`, 'four']);
	});

	it('takes each name the editor shows with the names under it, operations under their resource', () => {
		const names = optionNamesOf([
			[
				{ displayName: 'Resource', name: 'resource', options: [{ name: 'Room', value: 'room' }] },
				{ displayName: 'Operation', name: 'operation', displayOptions: { show: { resource: ['room'] } }, options: [{ name: 'Create', value: 'create' }] },
				{ displayName: 'Options', name: 'options', options: [{ displayName: 'Max Concurrent Requests', name: 'maxConcurrent' }] },
			],
		]);
		expect(names).toEqual(
			new Map([
				['Resource', new Set(['Room'])],
				['Room', new Set(['Create'])],
				['Operation', new Set(['Create'])],
				['Options', new Set(['Max Concurrent Requests'])],
			]),
		);
	});
});
