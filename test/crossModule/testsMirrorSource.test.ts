import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';

const ROOT = path.join(__dirname, '../..');
const PRODUCT = ['nodes', 'credentials'];

/** Product files with no test of their own: nothing in them runs but types or re-exports. */
const EXEMPT: Record<string, 'types only' | 'barrel'> = {
	'nodes/VideoPlatform/actions/types.ts': 'types only',
};

function filesUnder(folder: string, suffix: string): string[] {
	if (!existsSync(path.join(ROOT, folder))) return [];
	return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const file = `${folder}/${entry.name}`;
		if (entry.isDirectory()) return filesUnder(file, suffix);
		return file.endsWith(suffix) ? [file] : [];
	});
}

/** The lines of JavaScript a file compiles to, without comments. */
function javaScriptOf(file: string): string[] {
	const options = { module: ts.ModuleKind.ESNext, removeComments: true };
	const { outputText } = ts.transpileModule(readFileSync(path.join(ROOT, file), 'utf8'), { compilerOptions: options });
	return outputText.split('\n').filter((line) => line.trim() !== '');
}

const productFiles = PRODUCT.flatMap((folder) => filesUnder(folder, '.ts'));
const testOf = (file: string) => `test/${file.replace(/\.ts$/, '.test.ts')}`;
const productOf = (test: string) => test.replace(/^test\//, '').replace(/\.test\.ts$/, '.ts');

describe('the tests mirror the source (cross-module: every product file and test/)', () => {
	it('give every product file a test of the same path and name under test/', () => {
		const withoutTest = productFiles.filter((file) => !(file in EXEMPT) && !existsSync(path.join(ROOT, testOf(file))));
		expect(withoutTest).toEqual([]);
	});

	it('name no test under test/nodes or test/credentials after a product file that is gone', () => {
		const tests = PRODUCT.flatMap((folder) => filesUnder(`test/${folder}`, '.test.ts'));
		expect(tests.length).toBeGreaterThan(0);
		expect(tests.filter((test) => !existsSync(path.join(ROOT, productOf(test))))).toEqual([]);
	});

	it('exempt only files that exist and have no test', () => {
		const stale = Object.keys(EXEMPT).filter((file) => !productFiles.includes(file) || existsSync(path.join(ROOT, testOf(file))));
		expect(stale).toEqual([]);
	});

	it('exempt only files that are still types only, or re-exports only', () => {
		const runsCode = Object.entries(EXEMPT).filter(([file, kind]) => {
			const lines = javaScriptOf(file);
			return kind === 'types only' ? lines.join('\n') !== 'export {};' : !lines.every((line) => /^export (\*|\{[^}]*\}) from '.+';$/.test(line));
		});
		expect(runsCode).toEqual([]);
	});
});
