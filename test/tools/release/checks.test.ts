import * as fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { repoRoot } from '../../../tools/common/paths';
import { isPlaceholder, releaseProblems } from '../../../tools/release/checks';

const real = {
	name: 'n8n-nodes-videoplatform',
	version: '1.2.3',
	author: { name: 'Ada Lovelace', email: 'ada@videoplatform.io' },
	repository: { type: 'git', url: 'git+https://github.com/videoplatform/n8n-nodes-videoplatform.git' },
	homepage: 'https://github.com/videoplatform/n8n-nodes-videoplatform#readme',
};
const changelog = '# Changelog\n\n## 1.2.3\n\n- Rooms.\n';
const ok = { manifest: real, tag: 'v1.2.3', changelog };

describe('releaseProblems', () => {
	it('lets a release with a real author, a matching tag and a changelog entry go', () => {
		expect(releaseProblems(ok)).toEqual([]);
		expect(releaseProblems({ ...ok, githubRepository: 'videoplatform/n8n-nodes-videoplatform' })).toEqual([]);
	});

	it('stops a tag that is not the version', () => {
		expect(releaseProblems({ ...ok, tag: 'v1.2.4' })).toEqual(['The tag "v1.2.4" is not "v" + package.json "version" (1.2.3).']);
	});

	it('stops a version without its changelog entry, also when only a longer version has one', () => {
		const problem = 'CHANGELOG.md has no "## 1.2.3" entry.';
		expect(releaseProblems({ ...ok, changelog: '## 1.2.2\n' })).toEqual([problem]);
		expect(releaseProblems({ ...ok, changelog: '## 1.2.30\n' })).toEqual([problem]);
	});

	it.each([
		['author.email', { author: { name: 'Ada', email: 'integrations@videoplatform.example' } }],
		['author.email', { author: { name: 'Ada', email: '' } }],
		['author.email', { author: 'Ada' }],
		['author.name', { author: { name: ' ', email: 'ada@videoplatform.io' } }],
		['repository.url', { repository: { url: 'git+https://example.com/x.git' } }],
		['repository.url', { repository: '' }],
		['homepage', { homepage: 'https://docs.invalid/' }],
	])('names "%s" when it is a placeholder or empty', (field, change) => {
		const problems = releaseProblems({ ...ok, manifest: { ...real, ...change } });
		expect(problems).toHaveLength(1);
		expect(problems[0]).toContain(`"${field}"`);
	});

	it('stops a package that names another GitHub repository than the one releasing it (provenance would fail)', () => {
		expect(releaseProblems({ ...ok, githubRepository: 'someone/fork' })).toEqual([
			'package.json "repository.url" (git+https://github.com/videoplatform/n8n-nodes-videoplatform.git) is not this GitHub repository (someone/fork).',
		]);
	});

	it('finds a reserved name in any position of an address', () => {
		const reserved = fc.constantFrom('example', 'invalid', 'test', 'localhost', 'example.com', 'example.org');
		fc.assert(
			fc.property(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), reserved, (label, host) => {
				expect(isPlaceholder(`${label}@${host}`)).toBe(true);
				expect(isPlaceholder(`https://${label}.${host}/repo.git`)).toBe(true);
			}),
		);
	});

	it('today stops this package: its author e-mail is still a placeholder that only the owners can replace', () => {
		const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
		const problems = releaseProblems({ manifest, tag: `v${manifest.version}`, changelog: fs.readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8') });
		expect(problems).toEqual([expect.stringContaining('"author.email" (integrations@videoplatform.example) is a placeholder')]);
	});
});
