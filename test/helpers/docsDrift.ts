import * as fs from 'node:fs';
import * as path from 'node:path';

import * as ts from 'typescript';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { VideoPlatformWebhookApi } from '../../credentials/VideoPlatformWebhookApi.credentials';
import { VideoPlatform } from '../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../nodes/VideoPlatform/VideoPlatformTrigger.node';
import { repoRoot } from '../../tools/common/paths';
import { N8N_VERSIONS } from '../../tools/install/versions';

/**
 * What the docs may not contradict, and the rules that compare them. Each rule takes the pages
 * and the facts as values, so that its own tests can plant a contradiction in a few lines;
 * `repoFacts()` reads the facts from the repository (test/docs/drift.test.ts).
 */

/** A Markdown page: its path from the repository's root, and its text. */
export interface Page {
	file: string;
	text: string;
}

export interface Facts {
	/** The text of a repository file (a linked page), or undefined when there is none. */
	read: (file: string) => string | undefined;
	/** Whether a file or folder exists in the repository. */
	exists: (file: string) => boolean;
	/** package.json: its scripts, version and engines. */
	scripts: ReadonlySet<string>;
	packageVersion: string;
	engines: { n8n: string; node: string };
	/** The programs a fresh machine has after the README's setup: node, npm, npx and node_modules/.bin. */
	programs: ReadonlySet<string>;
	/** tools/install/versions.js: every version it names, with the Node of the installable ones. */
	n8nVersions: ReadonlyMap<string, { node?: number }>;
	/** What the editor shows: a name (a property, a resource) and the names chosen under it. */
	optionNames: ReadonlyMap<string, ReadonlySet<string>>;
	/** Every text the nodes and credentials carry, `${…}` parts as WILDCARD. */
	catalogue: readonly string[];
	/** The release tags (vX.Y.Z) of this repository: a dated version heading needs its tag. */
	releaseTags: ReadonlySet<string>;
	/** Each end-to-end test file, and the pictures (file names) its source names. */
	pictureTakers: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Stands for an interpolated part of a text in the catalogue. */
export const WILDCARD = '\u0000';

/** GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces as -. */
export function slug(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/[`*]/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a page's headings make, numbered as GitHub numbers repeats. */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const found = new Set<string>();
	for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		found.add(count ? `${base}-${count}` : base);
	}
	return found;
}

/** The fenced code blocks of a page, each with its language. */
export function codeBlocks(markdown: string): { lang: string; code: string }[] {
	return [...markdown.matchAll(/^```([\w-]*)[^\n]*\n([\s\S]*?)^```\s*$/gm)].map(([, lang, code]) => ({ lang, code }));
}

/** The page with its fenced blocks blanked, so that prose rules do not read code. */
function withoutCode(markdown: string): string {
	return markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, (block) => block.replace(/[^\n]/g, ' '));
}

/** Prose without inline code either. */
function prose(markdown: string): string {
	return withoutCode(markdown).replace(/``[^`]*``|`[^`\n]*`/g, (code) => ' '.repeat(code.length));
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Every relative link and #anchor resolves: the file exists, and a .md file has the heading. */
export function linkProblems(pages: readonly Page[], facts: Facts): string[] {
	const problems: string[] = [];
	for (const page of pages) {
		for (const [, target] of withoutCode(page.text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
			if (isExternal(target)) continue;
			const [filePart, anchor] = target.split('#', 2);
			const file = filePart ? path.posix.normalize(path.posix.join(path.posix.dirname(page.file), decodeURI(filePart))).replace(/\/$/, '') : page.file;
			if (file !== page.file && !facts.exists(file)) {
				problems.push(`${page.file}: the link ${target} points at ${file}, which does not exist`);
				continue;
			}
			if (anchor === undefined) continue;
			const text = file === page.file ? page.text : facts.read(file);
			if (!file.endsWith('.md') || text === undefined || !anchors(text).has(anchor)) {
				problems.push(`${page.file}: the link ${target} names #${anchor}, which is no heading of ${file}`);
			}
		}
	}
	return problems;
}

/** Each command of a shell line: `a && b | c; d` gives a, b, c and d, with `VAR=value` prefixes dropped. */
function commands(line: string): string[] {
	return line
		.replace(/(^|\s)#.*$/, '')
		.split(/&&|\|\||[;|]/)
		.map((part) => part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s*)+/, '').trim())
		.filter(Boolean);
}

/** `npm run X` names a script; every other shell command names a program the setup installs. */
export function commandProblems(pages: readonly Page[], facts: Facts): string[] {
	const problems: string[] = [];
	for (const page of pages) {
		for (const [, script] of page.text.matchAll(/\bnpm run ([\w:-]+)/g)) {
			if (!facts.scripts.has(script)) problems.push(`${page.file}: \`npm run ${script}\` names no script of package.json`);
		}
		for (const { lang, code } of codeBlocks(page.text)) {
			if (!['bash', 'sh', 'shell', 'console'].includes(lang)) continue;
			for (const line of code.replace(/\\\n/g, ' ').split('\n')) {
				for (const command of commands(line.replace(/^\$\s+/, ''))) {
					const [program, next] = command.split(/\s+/);
					if (!facts.programs.has(program)) {
						problems.push(`${page.file}: \`${command}\` runs ${program}, which the README's setup does not install`);
					} else if (program === 'npx' && next && !next.startsWith('-') && !facts.programs.has(next)) {
						problems.push(`${page.file}: \`${command}\` runs ${next}, which is not in node_modules/.bin`);
					}
				}
			}
		}
	}
	return problems;
}

const numeric = (version: string) => version.split('.').map(Number);

/** n8n versions, Node versions and version ranges come from tools/install/versions.js and package.json. */
export function versionProblems(pages: readonly Page[], facts: Facts): string[] {
	const problems: string[] = [];
	const known = [...facts.n8nVersions.keys(), ...(/\d+(?:\.\d+)+/.exec(facts.engines.n8n) ?? [])];
	const majors = new Set(known.map((version) => numeric(version)[0]));
	const excludedMajor = Number(/<\s*(\d+)(?:\.0)*\s*$/.exec(facts.engines.n8n)?.[1]);
	const nodes = new Set([...facts.n8nVersions.values()].map(({ node }) => node).filter((node) => node !== undefined));
	nodes.add(numeric(/\d+(?:\.\d+)*/.exec(facts.engines.node)?.[0] ?? '0')[0]);
	for (const page of pages) {
		const text = prose(page.text).replace(/\s+/g, ' ');
		const say = (what: string) => problems.push(`${page.file}: ${what}`);
		for (const [, version] of text.matchAll(/(?<![\w-])n8n v?(\d+\.\d+\.\d+)\b/g)) {
			if (!known.includes(version)) say(`n8n ${version} is not in tools/install/versions.js or package.json's engines`);
		}
		for (const [, version] of text.matchAll(/(?<![\w-])n8n v?(\d+\.\d+)(?![.\d])/g)) {
			const [major, minor] = numeric(version);
			const next = major === excludedMajor && minor === 0;
			if (!next && !known.some((k) => k.startsWith(`${version}.`))) say(`n8n ${version} matches no version of tools/install/versions.js`);
		}
		for (const [, major] of text.matchAll(/(?<![\w-])n8n (\d+)\.x\b/g)) {
			if (!majors.has(Number(major)) && Number(major) !== excludedMajor) say(`n8n ${major}.x: tools/install/versions.js has no ${major}.x`);
		}
		for (const [, node] of text.matchAll(/\bNode(?:\.js)? (\d+)\b/g)) {
			if (!nodes.has(Number(node))) say(`Node ${node} is neither a Node of tools/install/versions.js nor package.json's engines.node`);
		}
		// A range as npm writes it: the operator against the number (`>=1.85.4 <3`); "<= 1.15x" is a target.
		for (const [range] of page.text.matchAll(/(?<![-=\w])(?:>=|<=|>|<)\d+(?:\.\d+)*(?:\s+(?:>=|<=|>|<)\d+(?:\.\d+)*)*(?![\d.]*\s*[x%])/g)) {
			if (range !== facts.engines.n8n && range !== facts.engines.node) say(`the range ${range} is neither engines.n8n (${facts.engines.n8n}) nor engines.node (${facts.engines.node})`);
		}
		problems.push(...versionTableProblems(page, facts));
	}
	return problems;
}

/** A table whose columns are "n8n" and "Node.js" lists each installable version with its Node. */
function versionTableProblems(page: Page, facts: Facts): string[] {
	const problems: string[] = [];
	for (const [table] of withoutCode(page.text).matchAll(/^\|.*\n\|[-| :]+\|[ \t]*\n(?:\|.*(?:\n|$))*/gm)) {
		const [header, , ...rows] = table.trim().split('\n').map((row) => row.split('|').slice(1, -1).map((cell) => cell.trim()));
		if (header[0] !== 'n8n' || !/^Node/.test(header[1] ?? '')) continue;
		const installable = [...facts.n8nVersions].filter(([, { node }]) => node !== undefined);
		for (const [version, node] of rows) {
			const entry = facts.n8nVersions.get(version);
			if (entry?.node === undefined) problems.push(`${page.file}: its version table lists n8n ${version}, which tools/install/versions.js cannot install`);
			else if (Number(node) !== entry.node) problems.push(`${page.file}: its version table gives n8n ${version} Node ${node}; tools/install/versions.js says ${entry.node}`);
		}
		for (const [version] of installable) {
			if (!rows.some(([cell]) => cell === version)) problems.push(`${page.file}: its version table leaves out n8n ${version} of tools/install/versions.js`);
		}
	}
	return problems;
}

const normalize = (text: string) => text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();
const words = (text: string, count: number) => text.split(' ').slice(0, count).join(' ');

/** Whether a quote could be the start of the catalogue's text, or the text the start of the quote. */
function fits(quote: string, text: string): boolean {
	const [first, ...rest] = text.split(WILDCARD);
	if (quote.length <= first.length) return first.startsWith(quote);
	if (!quote.startsWith(first)) return false;
	let at = first.length;
	for (const chunk of rest.filter(Boolean)) {
		const found = quote.indexOf(chunk, at);
		// Not found: the quote ends inside an interpolated part, which may hold anything.
		if (found < 0) return true;
		at = found + chunk.length;
	}
	return true;
}

/**
 * Quoted messages (in *italics* or "quotes") that begin as one of the package's texts must be that
 * text, and `[…]` markers must be the package's own.
 */
export function quoteProblems(pages: readonly Page[], facts: Facts): string[] {
	const problems: string[] = [];
	const texts = facts.catalogue.map(normalize).filter((text) => !words(text, 4).includes(WILDCARD) && text.split(' ').length >= 4);
	const markerTexts = facts.catalogue.join('\n');
	// A bracketed text is taken for one of the package's markers when it shares a long word with one.
	const markerWords = new Set([...markerTexts.matchAll(/\[([^\]\n]+)\]/g)].flatMap(([, inner]) => inner.toLowerCase().match(/[a-z]{5,}/g) ?? []));
	for (const page of pages) {
		const body = withoutCode(page.text);
		const quotes = [...body.matchAll(/(?<![*\w])\*([^*\s](?:[^*\n]|\n(?!\n))*?)\*(?![*\w])|"([^"\n]{12,}?)"|“([^”]{12,}?)”/g)].map((m) => m[1] ?? m[2] ?? m[3]);
		for (const raw of quotes) {
			const quote = normalize(raw).split(/…|\.\.\./)[0].trim();
			if (quote.split(' ').length < 4) continue;
			const candidates = texts.filter((text) => words(text, 4) === words(quote, 4));
			if (candidates.length && !candidates.some((text) => fits(quote, text))) {
				problems.push(`${page.file}: "${quote}" is not what the package says: "${candidates[0].replaceAll(WILDCARD, '…')}"`);
			}
		}
		for (const [, marker] of body.matchAll(/`(\[[A-Za-z][^\]`\d]*\])`/g)) {
			const looksOurs = (marker.toLowerCase().match(/[a-z]{5,}/g) ?? []).some((word) => markerWords.has(word));
			if (looksOurs && !markerTexts.includes(marker)) problems.push(`${page.file}: the marker ${marker} is no text of the nodes or credentials`);
		}
		for (const [, pathText] of body.matchAll(/\*\*([^*\n]+→[^*\n]+)\*\*/g)) {
			const steps = pathText.split('→').map((step) => step.trim());
			for (let i = 0; i + 1 < steps.length && facts.optionNames.has(steps[i]); i++) {
				if (!facts.optionNames.get(steps[i])!.has(steps[i + 1])) {
					problems.push(`${page.file}: **${pathText}**: the editor shows no "${steps[i + 1]}" under "${steps[i]}"`);
					break;
				}
			}
		}
	}
	return problems;
}

/** The newest CHANGELOG heading is Unreleased or package.json's version; a dated version has its release tag. */
export function changelogProblems(changelog: Page, facts: Facts): string[] {
	const problems: string[] = [];
	const headings = [...changelog.text.matchAll(/^## (.+)$/gm)].map(([, heading]) => heading.trim());
	const newest = headings[0]?.replace(/^\[(.+?)\]/, '$1');
	if (newest !== 'Unreleased' && newest?.split(/\s/)[0] !== facts.packageVersion) {
		problems.push(`${changelog.file}: its newest heading "${headings[0]}" is neither "Unreleased" nor package.json's version ${facts.packageVersion}`);
	}
	for (const heading of headings) {
		const version = /^\[?(\d+\.\d+\.\d+)\]?/.exec(heading)?.[1];
		if (version && /\d{4}-\d{2}-\d{2}/.test(heading) && !facts.releaseTags.has(`v${version}`)) {
			problems.push(`${changelog.file}: "${heading}" dates a release, and there is no tag v${version}: nothing was published`);
		}
	}
	return problems;
}

/**
 * Every picture a page shows was taken by an end-to-end test; on a page that names the tests that
 * walk its steps (test files that take pictures), by one of those.
 */
export function pictureProblems(pages: readonly Page[], facts: Facts): string[] {
	const problems: string[] = [];
	for (const page of pages) {
		const walkers = [...facts.pictureTakers].filter(([test, pictures]) => pictures.size && page.text.includes(test)).map(([test]) => test);
		for (const [, target] of withoutCode(page.text).matchAll(/!\[[^\]]*\]\(([^)\s]+\.png)\)/g)) {
			const picture = path.posix.basename(target);
			const takers = [...facts.pictureTakers].filter(([, pictures]) => pictures.has(picture)).map(([test]) => test);
			if (!takers.length) problems.push(`${page.file}: no end-to-end test takes ${picture}`);
			else if (walkers.length && !takers.some((test) => walkers.includes(test))) {
				problems.push(`${page.file}: ${picture} is taken by ${takers.join(', ')}, not by ${walkers.join(', ')}, which walks this page's steps`);
			}
		}
	}
	return problems;
}

/** The package's own links into its repository (documentationUrl, codex files) name existing headings. */
export function packageLinkProblems(links: readonly { from: string; url: string }[], homepage: string, facts: Facts): string[] {
	const repository = homepage.replace(/#.*$/, '').replace(/\/$/, '');
	const problems: string[] = [];
	for (const { from, url } of links) {
		if (!url.startsWith(repository)) {
			problems.push(`${from}: ${url} is not in this repository (${repository})`);
			continue;
		}
		const [rest, anchor] = url.slice(repository.length).split('#', 2);
		const file = rest.replace(/^\/(?:blob|tree)\/[^/]+\//, '') || 'README.md';
		const text = facts.read(file);
		if (text === undefined) problems.push(`${from}: ${url} points at ${file}, which does not exist`);
		else if (anchor !== undefined && !anchors(text).has(anchor)) problems.push(`${from}: ${url} names #${anchor}, which is no heading of ${file}`);
	}
	return problems;
}

/** Every string and template text in a TypeScript file, interpolations as WILDCARD. */
export function textsIn(source: string): string[] {
	const texts: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
		else if (ts.isTemplateExpression(node)) texts.push([node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(WILDCARD));
		ts.forEachChild(node, visit);
	};
	visit(ts.createSourceFile('file.ts', source, ts.ScriptTarget.Latest, true));
	return texts;
}

type Property = { displayName?: string; name: string; value?: unknown; options?: Property[]; values?: Property[]; displayOptions?: { show?: Record<string, unknown[]> } };

/** From node and credential properties: each name the editor shows, and the names chosen under it. */
export function optionNamesOf(propertyLists: readonly Property[][]): Map<string, Set<string>> {
	const names = new Map<string, Set<string>>();
	const add = (parent: string, child: string) => names.set(parent, (names.get(parent) ?? new Set()).add(child));
	for (const properties of propertyLists) {
		for (const property of properties) {
			for (const option of property.options ?? []) add(property.displayName ?? property.name, option.displayName ?? option.name);
			if (property.name !== 'resource') continue;
			for (const resource of property.options ?? []) {
				for (const operation of properties) {
					if (operation.name === 'operation' && operation.displayOptions?.show?.resource?.includes(resource.value)) {
						for (const option of operation.options ?? []) add(resource.name, option.name);
					}
				}
			}
		}
	}
	return names;
}

/** The pages the rules read: README.md, CHANGELOG.md and every docs/*.md. */
export function repoPages(root: string): Page[] {
	const files = ['README.md', 'CHANGELOG.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
	return files.map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
}

/** Every .ts file under a folder. */
export function tsFilesUnder(dir: string): string[] {
	return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
}

const inRepo = (file: string) => path.join(repoRoot, file);

/** The facts, read from this repository: package.json, versions.js, the nodes' source, the tests. */
export function repoFacts(releaseTags: ReadonlySet<string>): Facts {
	const manifest = JSON.parse(fs.readFileSync(inRepo('package.json'), 'utf8'));
	const e2e = path.join(repoRoot, 'test', 'e2e');
	const pictureTakers = new Map(
		tsFilesUnder(e2e).map((file) => [
			path.relative(repoRoot, file).split(path.sep).join('/'),
			new Set([...fs.readFileSync(file, 'utf8').matchAll(/['"`]([\w-]+\.png)['"`]/g)].map(([, picture]) => picture)),
		]),
	);
	return {
		read: (file) => (fs.existsSync(inRepo(file)) && fs.statSync(inRepo(file)).isFile() ? fs.readFileSync(inRepo(file), 'utf8') : undefined),
		exists: (file) => fs.existsSync(inRepo(file)),
		scripts: new Set(Object.keys(manifest.scripts)),
		packageVersion: manifest.version,
		engines: manifest.engines,
		programs: new Set(['node', 'npm', 'npx', ...fs.readdirSync(inRepo('node_modules/.bin'))]),
		n8nVersions: new Map(Object.entries(N8N_VERSIONS).map(([version, entry]) => [version, { node: 'node' in entry ? entry.node : undefined }])),
		optionNames: optionNamesOf([
			new VideoPlatform().description.properties,
			new VideoPlatformTrigger().description.properties,
			new VideoPlatformApi().properties,
			new VideoPlatformWebhookApi().properties,
		] as unknown as Property[][]),
		catalogue: [inRepo('nodes'), inRepo('credentials')].flatMap(tsFilesUnder).flatMap((file) => textsIn(fs.readFileSync(file, 'utf8'))),
		releaseTags,
		pictureTakers,
	};
}

/** The links the package carries into its repository: the credentials' documentationUrl, the codex files'. */
export function packageLinks(): { from: string; url: string }[] {
	const credentials = [new VideoPlatformApi(), new VideoPlatformWebhookApi()].map((credential) => ({ from: `credential ${credential.name}`, url: credential.documentationUrl }));
	const codex = ['VideoPlatform.node.json', 'VideoPlatformTrigger.node.json'].flatMap((name) => {
		const { resources } = JSON.parse(fs.readFileSync(inRepo(`nodes/VideoPlatform/${name}`), 'utf8'));
		return Object.values(resources as Record<string, { url: string }[]>).flat().map(({ url }) => ({ from: name, url }));
	});
	return [...credentials, ...codex];
}
