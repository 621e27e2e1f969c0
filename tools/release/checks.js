'use strict';
// What must hold before a version is published: what n8n's verification asks of the package, and
// what keeps a tag, the changelog and the tarball in step. Each problem names the field to fix.
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');

/** A host that stands in for a real one (RFC 2606 and 6761 names), or nothing at all. */
const PLACEHOLDER = /(^|[.@/])(example|invalid|test|localhost)(\.[a-z]+)?([/:>]|$)|(^|[.@/])example\.(com|org|net)([/:>]|$)/i;
const isPlaceholder = (/** @type {unknown} */ value) => typeof value !== 'string' || !value.trim() || PLACEHOLDER.test(value.trim());

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
	if (isPlaceholder(author.email)) {
		problems.push(`package.json "author.email" (${author.email ?? 'missing'}) is a placeholder: use the e-mail of the npm account that publishes.`);
	}
	if (isPlaceholder(repository)) problems.push(`package.json "repository.url" (${repository ?? 'missing'}) is a placeholder.`);
	if (isPlaceholder(manifest.homepage)) problems.push(`package.json "homepage" (${manifest.homepage ?? 'missing'}) is a placeholder.`);
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

module.exports = { releaseProblems, integrityOf, manifestIn, isPlaceholder };
