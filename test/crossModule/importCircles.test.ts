import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';

const ROOT = path.join(__dirname, '../..');

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(file);
		return file.endsWith('.ts') ? [file] : [];
	});
}

/** The package's files each file imports, type-only imports and re-exports included. */
function importsOf(file: string): string[] {
	const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
	return importedFiles
		.filter(({ fileName }) => fileName.startsWith('.'))
		.map(({ fileName }) => path.resolve(path.dirname(file), fileName))
		.map((base) => [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate)) ?? base);
}

/** One import circle, as the files along it, or undefined. */
function findCircle(files: string[]): string[] | undefined {
	const done = new Set<string>();
	const visit = (file: string, trail: string[]): string[] | undefined => {
		if (trail.includes(file)) return [...trail.slice(trail.indexOf(file)), file];
		if (done.has(file)) return undefined;
		for (const imported of importsOf(file)) {
			const circle = visit(imported, [...trail, file]);
			if (circle) return circle;
		}
		done.add(file);
		return undefined;
	};
	for (const file of files) {
		const circle = visit(file, []);
		if (circle) return circle.map((step) => path.relative(ROOT, step));
	}
	return undefined;
}

describe('imports between the nodes and credentials (cross-module)', () => {
	// A circle makes a module's value undefined while the other loads; a type-only one still
	// means neither file reads alone.
	it('form no circle, type-only imports included', () => {
		const files = ['nodes', 'credentials'].flatMap((folder) => sourceFiles(path.join(ROOT, folder)));
		expect(files.length).toBeGreaterThan(40);
		expect(findCircle(files)).toBeUndefined();
	});
});
