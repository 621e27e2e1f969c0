'use strict';
// What must hold before a version is published: what n8n's verification asks of the package, and
// what keeps a tag, the changelog and the tarball in step. Each problem names the field to fix.
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');

/** Characters a reader does not see, or sees as a space: never part of a real address. */
const UNSEEN = /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Z}]/u;
/** Names that stand in for real ones (RFC 2606, 6761, 6762, 8375), as the last labels of a host. */
const RESERVED_TLDS = new Set(['example', 'invalid', 'test', 'localhost', 'local']);
const RESERVED_DOMAINS = new Set(['example.com', 'example.net', 'example.org', 'home.arpa']);
const LOCAL_PART = /^[\p{L}\p{N}\p{M}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}\p{M}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const LABEL = /^(?!-)[\p{L}\p{N}\p{M}-]{1,63}(?<!-)$/u;

/** A value as a reader can check it: unseen characters written as their code points. */
const shown = (/** @type {string} */ value) => value.replace(new RegExp(UNSEEN.source, 'gu'), (char) => `U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`);

/** Whether a host name is a reserved stand-in; a fully qualified name's trailing dot changes nothing. */
function isReservedHost(/** @type {string} */ host) {
	const labels = host.toLowerCase().replace(/\.$/, '').split('.');
	return RESERVED_TLDS.has(labels[labels.length - 1]) || RESERVED_DOMAINS.has(labels.slice(-2).join('.'));
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
	return isReservedHost(value.slice(at + 1)) ? `(${value}) is a placeholder` : undefined;
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
	return isReservedHost(url.hostname) ? `(${value}) is a placeholder` : undefined;
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
