'use strict';
// What must hold before a version is published: what n8n's verification asks of the package, and
// what keeps a tag, the changelog and the tarball in step. Each problem names the field to fix.
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const { isIP } = require('node:net');
const { domainToASCII, domainToUnicode } = require('node:url');

/** Characters a reader does not see, or sees as a space: never part of a real address. */
const UNSEEN = /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Z}]/u;
/** Names that stand in for real ones (RFC 2606, 6761, 6762, 8375; .internal, which ICANN keeps for private use), as the last labels of a host. */
const RESERVED_TLDS = [
	'example', 'invalid', 'test', 'localhost', 'local', 'internal',
	// ICANN's IDN test TLDs: "test" and "example" in ten languages (.テスト is xn--zckzah).
	'испытание', 'परीक्षा', '测试', '測試', 'آزمایشی', 'إختبار', 'טעסט', 'δοκιμή', 'பரிட்சை', 'テスト', '테스트',
	'пример', 'उदाहरण', '例子', 'مثال', 'בײַשפּיל', 'παράδειγμα', 'உதாரணம்', '例え', '실례',
];
const RESERVED_DOMAINS = ['example.com', 'example.net', 'example.org', 'home.arpa'];
/** Compared in the ASCII form a browser resolves (punycode, lower case, NFKC), so every spelling of a name is one. */
const RESERVED_ASCII = new Set([...RESERVED_TLDS, ...RESERVED_DOMAINS].map((name) => domainToASCII(name)));
const LOCAL_PART = /^[\p{L}\p{N}\p{M}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}\p{M}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const LABEL = /^(?!-)[\p{L}\p{N}\p{M}-]{1,63}(?<!-)$/u;

/** A value as a reader can check it: unseen characters written as their code points. */
const shown = (/** @type {string} */ value) => value.replace(new RegExp(UNSEEN.source, 'gu'), (char) => `U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`);

/** Whether an ASCII host name ends in a reserved stand-in. */
function endsReserved(/** @type {string} */ ascii) {
	const labels = ascii.split('.');
	return RESERVED_ASCII.has(labels[labels.length - 1]) || RESERVED_ASCII.has(labels.slice(-2).join('.'));
}

/** A label's letters from Latin and from another script: how a look-alike (Cyrillic е in еxample) passes for a Latin name. */
const mixesScripts = (/** @type {string} */ label) => /\p{Script=Latin}/u.test(label) && /(?!\p{Script=Latin})\p{L}/u.test(label);

/**
 * What keeps a host from being the publisher's public name, or undefined. Compared in its ASCII form,
 * so Unicode and punycode spellings are one; a name that reads as a reserved one once its accents and
 * other marks are dropped (example.com with U+0301) counts as reserved. A fully qualified name's
 * trailing dot changes nothing.
 * @param {string} host
 */
function hostProblem(host) {
	const bare = host.replace(/^\[(.*)\]$/, '$1');
	if (isIP(bare)) return 'is on an IP address, not a public name';
	const ascii = domainToASCII(host.replace(/\.$/, ''));
	if (ascii === '') return 'has a host name that is not valid';
	const unicode = domainToUnicode(ascii);
	const mixed = unicode.split('.').find(mixesScripts);
	if (mixed) return `mixes Latin letters with another script's in "${mixed}", as a look-alike of another name does`;
	const unmarked = domainToASCII(unicode.normalize('NFKD').replace(/\p{M}/gu, ''));
	return endsReserved(ascii) || endsReserved(unmarked) ? 'is a placeholder' : undefined;
}

/**
 * What keeps an e-mail address from being the publisher's, or undefined: parsed as `local@domain`
 * (a dot-atom local part, a domain of at least two labels, one trailing dot allowed), not merely searched for a placeholder.
 * @param {unknown} value
 */
function emailProblem(value) {
	if (typeof value !== 'string' || value === '') return 'is missing';
	if (UNSEEN.test(value)) return `(${shown(value)}) holds a space or an invisible character`;
	const at = value.lastIndexOf('@');
	const local = value.slice(0, at);
	const labels = value.slice(at + 1).replace(/\.$/, '').split('.');
	const isAddress = at > 0 && value.length <= 254 && local.length <= 64 && LOCAL_PART.test(local) && labels.length >= 2 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels[labels.length - 1]);
	if (!isAddress) return `(${value}) is not an e-mail address (name@domain)`;
	const host = hostProblem(value.slice(at + 1));
	return host ? `(${value}) ${host}` : undefined;
}

/**
 * What keeps a repository or homepage URL from being real, or undefined.
 * @param {unknown} value
 */
function urlProblem(value) {
	if (typeof value !== 'string' || value === '') return 'is missing';
	if (UNSEEN.test(value)) return `(${shown(value)}) holds a space or an invisible character`;
	let url;
	try {
		url = new URL(value.replace(/^git\+/, ''));
	} catch {
		return `(${value}) is not a URL`;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return `(${value}) is not an http(s) URL`;
	const host = hostProblem(url.hostname);
	return host ? `(${value}) ${host}` : undefined;
}

/**
 * @typedef {{ name?: string, version?: string, author?: string | { name?: string, email?: string },
 *   repository?: string | { url?: string }, homepage?: string }} Manifest
 */

/**
 * @param {{ manifest: Manifest, tag: string, changelog: string, githubRepository?: string }} release
 * @returns {string[]} what stops the release, in words that name the field; empty when it may go
 */
function releaseProblems({ manifest, tag, changelog, githubRepository }) {
	const problems = [];
	const author = typeof manifest.author === 'string' ? { name: manifest.author } : (manifest.author ?? {});
	const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	if (tag !== `v${manifest.version}`) problems.push(`The tag "${tag}" is not "v" + package.json "version" (${manifest.version}).`);
	if (!new RegExp(`^## \\[?${String(manifest.version).replace(/\./g, '\\.')}\\]?(\\s|$)`, 'm').test(changelog)) {
		problems.push(`CHANGELOG.md has no "## ${manifest.version}" entry.`);
	}
	if (!author.name?.trim()) problems.push('package.json "author.name" is empty: n8n asks for a real author.');
	const email = emailProblem(author.email);
	if (email) problems.push(`package.json "author.email" ${email}: use the e-mail of the npm account that publishes.`);
	const repositoryUrl = urlProblem(repository);
	if (repositoryUrl) problems.push(`package.json "repository.url" ${repositoryUrl}.`);
	const homepage = urlProblem(manifest.homepage);
	if (homepage) problems.push(`package.json "homepage" ${homepage}.`);
	// npm's provenance is refused when the package names another repository than the one building it.
	if (githubRepository && repository && !repository.replace(/\.git$/, '').endsWith(`github.com/${githubRepository}`)) {
		problems.push(`package.json "repository.url" (${repository}) is not this GitHub repository (${githubRepository}).`);
	}
	return problems;
}

/** npm's integrity string (sha512, base64) of a file. */
const integrityOf = (/** @type {string} */ file) => `sha512-${createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;

/**
 * The package.json inside a tarball: the bytes that are published, not the checkout's.
 * @param {string} tarball
 * @returns {Manifest}
 */
const manifestIn = (tarball) => JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));

module.exports = { releaseProblems, integrityOf, manifestIn };
