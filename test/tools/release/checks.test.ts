import * as fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { repoRoot } from '../../../tools/common/paths';
import { releaseProblems } from '../../../tools/release/checks';
import { anyText, codePointsOf } from '../../helpers/unicode';

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

	// The reserved names, the IDN test TLDs in both their Unicode and their punycode spelling.
	const RESERVED = [
		'example', 'invalid', 'test', 'localhost', 'local', 'internal', 'example.com', 'example.net', 'example.org', 'home.arpa',
		'テスト', 'xn--zckzah', '例え', 'xn--r8jz45g', 'испытание', 'xn--80akhbyknj4f', '测试', 'δοκιμή', '테스트', 'παράδειγμα',
	];
	const problemsWith = (change: object) => releaseProblems({ ...ok, manifest: { ...real, ...change } });
	const emailProblems = (email: string) => problemsWith({ author: { name: 'Ada', email } });
	const reservedHost = fc.tuple(
		fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/),
		fc.constantFrom(...RESERVED),
		fc.boolean(),
		fc.boolean(),
	).map(([label, reserved, upper, trailingDot]) => `${label}.${upper ? reserved.toUpperCase() : reserved}${trailingDot ? '.' : ''}`);

	it('finds a reserved domain at the end of an e-mail address or URL, in any letter case, with or without the trailing dot', () => {
		fc.assert(
			fc.property(reservedHost, (host) => {
				expect(emailProblems(`ada@${host}`)).toEqual([expect.stringContaining('is a placeholder')]);
				expect(problemsWith({ repository: { url: `git+https://${host}/repo.git` } })).toEqual([expect.stringContaining('"repository.url"')]);
				expect(problemsWith({ homepage: `https://${host}/` })).toEqual([expect.stringContaining('"homepage"')]);
			}),
		);
		expect(emailProblems('integrations@videoplatform.example.')).toEqual([expect.stringContaining('is a placeholder')]);
	});

	const ipHost = fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.ipV6().map((ip) => `[${ip}]`));

	it('refuses a homepage or repository on an IP address, however written: n8n wants public ones', () => {
		fc.assert(
			fc.property(ipHost, fc.constantFrom('http', 'https'), (host, scheme) => {
				expect(problemsWith({ homepage: `${scheme}://${host}/n8n-nodes-videoplatform` })).toEqual([expect.stringContaining('"homepage" (')]);
				expect(problemsWith({ homepage: `${scheme}://${host}/x` })[0]).toContain('is on an IP address');
				expect(problemsWith({ repository: { url: `git+${scheme}://${host}/x.git` } })).toEqual([expect.stringContaining('is on an IP address')]);
			}),
		);
		expect(emailProblems('ada@[127.0.0.1]')).toHaveLength(1);
	});

	// Letters of other scripts that pass for Latin ones.
	const LOOK_ALIKES: Record<string, string[]> = { a: ['\u0430', '\u03b1'], e: ['\u0435'], o: ['\u043e', '\u03bf'], p: ['\u0440', '\u03c1'], c: ['\u0441'], x: ['\u0445', '\u03c7'], i: ['\u0456', '\u03b9'], s: ['\u0455'], n: ['\u03b7'] };
	/** A Latin domain with one of its letters swapped for a look-alike from another script. */
	const withLookAlike = (domain: string) =>
		fc
			.constantFrom(...[...domain].flatMap((char, at) => (LOOK_ALIKES[char] ?? []).map((alike) => [at, alike] as const)))
			.map(([at, alike]) => domain.slice(0, at) + alike + domain.slice(at + 1));

	it('refuses a domain that mixes Latin letters with a look-alike from another script, reserved or not', () => {
		const domains = fc.constantFrom('example.com', 'mail.example.org', 'videoplatform.io', 'github.com', 'localhost.dev');
		fc.assert(
			fc.property(domains.chain(withLookAlike), (domain) => {
				expect(emailProblems(`ada@${domain}`)).toEqual([expect.stringContaining('mixes Latin letters with another script')]);
				expect(problemsWith({ homepage: `https://${domain}/x` })).toEqual([expect.stringContaining('mixes Latin letters with another script')]);
			}),
		);
		expect(emailProblems('ada@\u0435xample.com')).toEqual([expect.stringContaining('"\u0435xample"')]);
	});

	const combiningMarks = codePointsOf(/\p{M}/u);

	it('refuses a reserved name with any combining mark after any of its letters', () => {
		const marked = fc.tuple(fc.constantFrom('example.com', 'videoplatform.example', 'corp.internal', 'ci.test'), fc.nat(), fc.integer({ min: 0, max: combiningMarks.length - 1 })).map(
			([domain, at, index]) => {
				const where = 1 + (at % domain.length);
				return domain.slice(0, where) + String.fromCodePoint(combiningMarks[index]) + domain.slice(where);
			},
		);
		fc.assert(
			fc.property(marked, (domain) => {
				expect(emailProblems(`ada@${domain}`)).toHaveLength(1);
				expect(problemsWith({ homepage: `https://${domain}/x` })).toHaveLength(1);
			}),
			{ numRuns: 500 },
		);
		expect(emailProblems('ada@example.com\u0301')).toEqual([expect.stringContaining('is a placeholder')]);
		expect(emailProblems('ada@exa\u0301mple.com')).toEqual([expect.stringContaining('is a placeholder')]);
	});

	it('reads a Unicode and a punycode spelling of a domain as one', () => {
		expect(emailProblems('ada@\u4f8b\u3048.\u30c6\u30b9\u30c8')).toEqual([expect.stringContaining('is a placeholder')]);
		expect(emailProblems('ada@xn--r8jz45g.xn--zckzah')).toEqual([expect.stringContaining('is a placeholder')]);
		expect(problemsWith({ homepage: 'https://github.example\uff0ecom/x' })).toEqual([expect.stringContaining('is a placeholder')]);
	});

	// Every code point a reader does not see or sees as a space: default-ignorable, control, format, separator.
	const unseen = codePointsOf(/[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Z}]/u);

	it('refuses an address or URL with an invisible character or a space anywhere, from the whole class, and shows where', () => {
		const good = 'ada@videoplatform.io';
		fc.assert(
			fc.property(fc.integer({ min: 0, max: unseen.length - 1 }), fc.nat(), (index, at) => {
				const cp = unseen[index];
				const where = at % (good.length + 1);
				const problems = emailProblems(good.slice(0, where) + String.fromCodePoint(cp) + good.slice(where));
				expect(problems).toEqual([expect.stringContaining('an invisible character')]);
				expect(problems[0]).toContain(`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
				expect(problemsWith({ homepage: `https://videoplatform.io/${String.fromCodePoint(cp)}` })).toHaveLength(1);
			}),
			{ numRuns: 500 },
		);
		expect(emailProblems('ada@example.com\u200b')).toEqual([expect.stringContaining('U+200B')]);
	});

	it('refuses anything that is not name@domain', () => {
		const noAt = anyText({ minLength: 1 }).filter((text) => !text.includes('@'));
		fc.assert(fc.property(noAt, (text) => expect(emailProblems(text)).toHaveLength(1)));
		for (const text of ['x', '@videoplatform.io', 'ada@', 'ada@io', 'ada@videoplatform..io', 'ada..lovelace@videoplatform.io', 'ada@-videoplatform.io', 'ada@videoplatform.123', 'ada@videoplatform．io']) {
			expect(emailProblems(text)).toEqual([expect.stringContaining('is not an e-mail address')]);
		}
	});

	it('lets a real address through, Unicode letters included', () => {
		const atom = fc.stringMatching(/^[a-z0-9!#$%&'*+/=?^_`{|}~-]{1,12}$/);
		const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
		fc.assert(
			fc.property(fc.array(atom, { minLength: 1, maxLength: 3 }), label, fc.constantFrom('io', 'de', 'co.uk', 'fr'), (local, domain, tld) => {
				expect(emailProblems(`${local.join('.')}@${domain}.${tld}`)).toEqual([]);
			}),
		);
		expect(emailProblems('zoë@bücher.de')).toEqual([]);
		// One script to a label, whatever the script; a reserved name only as the last labels.
		for (const email of ['ada@xn--bcher-kva.de', 'ada@почта.рф', 'ada@テスト.jp', 'ada@例え.co.jp', 'ada@παράδειγμα.gr', 'ada@internal.io']) {
			expect(emailProblems(email)).toEqual([]);
		}
		expect(problemsWith({ homepage: 'https://bücher.de/n8n' })).toEqual([]);
	});

	it('today stops this package: its changelog is still Unreleased, and its author e-mail a placeholder that only the owners can replace', () => {
		const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
		const problems = releaseProblems({ manifest, tag: `v${manifest.version}`, changelog: fs.readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8') });
		expect(problems).toEqual([
			`CHANGELOG.md has no "## ${manifest.version}" entry.`,
			expect.stringContaining('"author.email" (integrations@videoplatform.example) is a placeholder'),
		]);
	});
});
