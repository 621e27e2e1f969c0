import fc from 'fast-check';

import { coveringTestFiles, mutantTestFiles } from '../../../tools/mutation/coveringTestFiles';

describe('coveringTestFiles: the test files a mutant runs', () => {
	const fileOf = new Map([
		['redaction hides the key', '/repo/test/a.test.ts'],
		['redaction hides the key in upper case', '/repo/test/a.test.ts'],
		['the client names the item', '/repo/test/b.test.ts'],
	]);

	it('each file holding a covering test, once, and no other', () => {
		const patterns = coveringTestFiles(['redaction hides the key', 'redaction hides the key in upper case'], fileOf);
		expect(patterns).toHaveLength(1);
		expect(new RegExp(patterns![0]).test('/repo/test/a.test.ts')).toBe(true);
		expect(new RegExp(patterns![0]).test('/repo/test/b.test.ts')).toBe(false);
	});

	it('none chosen when Stryker names no tests (every test runs), or a test the first run did not find', () => {
		expect(coveringTestFiles(undefined, fileOf)).toBeUndefined();
		expect(coveringTestFiles(['the client names the item', 'a test added since'], fileOf)).toBeUndefined();
	});

	it('a pattern matches its own path exactly, whatever characters the path holds (full Unicode, regex specials)', () => {
		const path = fc.string({ unit: 'binary', minLength: 1 }).map((name) => `/repo/test/${name}(.*+?^$|[]{}\\).test.ts`);
		fc.assert(
			fc.property(path, fc.string({ unit: 'binary', minLength: 1 }), (file, extra) => {
				const [pattern] = coveringTestFiles(['t'], new Map([['t', file]]))!;
				const matches = (candidate: string) => new RegExp(pattern).test(candidate);
				expect(matches(file)).toBe(true);
				expect(matches(`${file}${extra}`) || matches(`${extra}${file}`)).toBe(false);
			}),
		);
	});
});

describe('mutantTestFiles: a static mutant runs its own file\'s test file alone', () => {
	const fileOf = new Map([['the client names the item', '/repo/test/b.test.ts']]);

	it('its own test file, when Stryker names no covering tests (a static mutant) and the file has one', () => {
		const patterns = mutantTestFiles(undefined, fileOf, '/repo/test/nodes/secretTraces.test.ts');
		expect(patterns).toHaveLength(1);
		expect(new RegExp(patterns![0]).test('/repo/test/nodes/secretTraces.test.ts')).toBe(true);
		expect(new RegExp(patterns![0]).test('/repo/test/nodes/secretTracesXtest.ts')).toBe(false);
	});

	it('the covering tests\' files when Stryker names them, own test file or not; every related test file when the file has none', () => {
		expect(mutantTestFiles(['the client names the item'], fileOf, '/repo/test/a.test.ts')).toEqual(coveringTestFiles(['the client names the item'], fileOf));
		expect(mutantTestFiles(undefined, fileOf, undefined)).toBeUndefined();
	});
});
