import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const PRODUCT = ['nodes', 'credentials'];

/** Product files with no test of their own, and why: nothing in them runs. */
const EXEMPT: Record<string, string> = {
	'nodes/VideoPlatform/actions/types.ts': 'types only',
	'nodes/VideoPlatform/actions/guardedRun.ts': 'types only',
	'nodes/VideoPlatform/transport/request.ts': 'types only',
	'nodes/VideoPlatform/transport/index.ts': 'barrel: re-exports only',
};

function filesUnder(folder: string, suffix: string): string[] {
	if (!existsSync(path.join(ROOT, folder))) return [];
	return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const file = `${folder}/${entry.name}`;
		if (entry.isDirectory()) return filesUnder(file, suffix);
		return file.endsWith(suffix) ? [file] : [];
	});
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

	it('exempt only files that exist and still have no test', () => {
		const stale = Object.keys(EXEMPT).filter((file) => !productFiles.includes(file) || existsSync(path.join(ROOT, testOf(file))));
		expect(stale).toEqual([]);
	});
});
