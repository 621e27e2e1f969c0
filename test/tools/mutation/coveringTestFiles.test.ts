import fc from 'fast-check';

import { coveringTestFiles } from '../../../tools/mutation/coveringTestFiles';

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
