'use strict';
// The product's size as issue 46 measures it, from a tool rather than prose: code lines, files,
// transport files and import circles of nodes/ and credentials/. `npm run size`; `-- --files`
// also lists each file's code lines, for a before/after per file.
const fs = require('node:fs');
const path = require('node:path');

const ts = require('typescript');

const ROOT = path.join(__dirname, '../..');
const PRODUCT_FOLDERS = ['nodes', 'credentials'];

/** The .ts files under a folder, depth first. */
function sourceFiles(/** @type {string} */ folder) {
	/** @type {string[]} */
	const files = [];
	for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
		const file = path.join(folder, entry.name);
		if (entry.isDirectory()) files.push(...sourceFiles(file));
		else if (file.endsWith('.ts')) files.push(file);
	}
	return files;
}

/**
 * Lines holding a token other than a comment, by TypeScript's parser (so a template's text after
 * `${…}` is not read as code); a line longer than 100 characters counts once per started 100, so
 * that neither deleting comments nor packing statements moves the figure.
 */
function codeLines(/** @type {string} */ text) {
	const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
	/** @type {Set<number>} */
	const lines = new Set();
	const lineOf = (/** @type {number} */ position) => source.getLineAndCharacterOfPosition(position).line;
	const visit = (/** @type {import('typescript').Node} */ node) => {
		if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
		const children = node.getChildren(source);
		if (children.length > 0) return children.forEach(visit);
		if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
		const start = node.getStart(source);
		for (let line = lineOf(start); line <= lineOf(Math.max(start, node.getEnd() - 1)); line++) lines.add(line);
	};
	visit(source);
	const all = text.split('\n');
	let total = 0;
	for (const line of lines) total += Math.max(1, Math.ceil(all[line].length / 100));
	return total;
}

/** The package's files a file imports, type-only imports and re-exports included. */
function importsOf(/** @type {string} */ file) {
	const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
	return importedFiles
		.filter(({ fileName }) => fileName.startsWith('.'))
		.map(({ fileName }) => path.resolve(path.dirname(file), fileName))
		.map((base) => [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate)) ?? base);
}

/** Every import circle once, each as the files along it (first file repeated at the end). */
function importCircles(/** @type {string[]} */ files) {
	/** @type {Map<string, string[]>} */
	const circles = new Map();
	/** @type {Set<string>} */
	const done = new Set();
	const visit = (/** @type {string} */ file, /** @type {string[]} */ trail) => {
		if (trail.includes(file)) {
			const circle = trail.slice(trail.indexOf(file));
			// The same circle reached from another of its files is one circle.
			const key = [...circle].sort().join('\n');
			if (!circles.has(key)) circles.set(key, [...circle, file]);
			return;
		}
		if (done.has(file)) return;
		for (const imported of importsOf(file)) visit(imported, [...trail, file]);
		done.add(file);
	};
	for (const file of files) visit(file, []);
	return [...circles.values()];
}

/** The figures for the product under `root`. */
function productSize(root = ROOT) {
	const files = PRODUCT_FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)));
	const relative = (/** @type {string} */ file) => path.relative(root, file).split(path.sep).join('/');
	/** @type {Record<string, number>} */
	const perFile = {};
	for (const file of files) perFile[relative(file)] = codeLines(fs.readFileSync(file, 'utf8'));
	return {
		codeLines: Object.values(perFile).reduce((sum, lines) => sum + lines, 0),
		files: files.length,
		perFile,
		transportFiles: files.filter((file) => relative(file).startsWith('nodes/VideoPlatform/transport/')).length,
		importCircles: importCircles(files).map((circle) => circle.map(relative)),
	};
}

if (require.main === module) {
	const size = productSize();
	console.log(`code lines       ${size.codeLines}`);
	console.log(`product files    ${size.files}`);
	console.log(`transport files  ${size.transportFiles}`);
	console.log(`import circles   ${size.importCircles.length}`);
	for (const circle of size.importCircles) console.log(`  ${circle.join(' → ')}`);
	if (process.argv.includes('--files')) {
		for (const [file, lines] of Object.entries(size.perFile).sort(([, a], [, b]) => b - a)) console.log(`${String(lines).padStart(5)}  ${file}`);
	}
}

module.exports = { sourceFiles, codeLines, importsOf, importCircles, productSize };
