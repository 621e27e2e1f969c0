import fc from 'fast-check';

import { mutantKey } from '../../../tools/mutation/changed';
import { coveringTestFiles, lastResultOf, runMutant } from '../../../tools/mutation/coveringTestFiles';

/** A run that answers each call with the next status, and records the test files it was given. */
const runAnswering = (...statuses: string[]) => {
	const calls: Array<string[] | undefined> = [];
	const run = async (files: string[] | undefined) => {
		calls.push(files);
		return { status: statuses[calls.length - 1] };
	};
	return { run, calls };
};

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

describe('runMutant: a static mutant runs its own file\'s test file first', () => {
	const fileOf = new Map([['the client names the item', '/repo/test/b.test.ts']]);
	const OWN = '/repo/test/nodes/secretTraces.test.ts';

	it('its own test file alone when that file kills it (Stryker names no covering tests for a static mutant)', async () => {
		const { run, calls } = runAnswering('killed');
		expect(await runMutant(run, undefined, fileOf, OWN)).toEqual({ status: 'killed' });
		expect(calls).toHaveLength(1);
		expect(new RegExp(calls[0]![0]).test(OWN)).toBe(true);
		expect(new RegExp(calls[0]![0]).test('/repo/test/nodes/secretTracesXtest.ts')).toBe(false);
	});

	it('then every test file importing its file, when its own file does not notice it: that run\'s verdict counts', async () => {
		const { run, calls } = runAnswering('survived', 'killed');
		expect(await runMutant(run, undefined, fileOf, OWN)).toEqual({ status: 'killed' });
		expect(calls).toHaveLength(2);
		expect(calls[1]).toBeUndefined();
	});

	it('the covering tests\' files once when Stryker names them, own test file or not; every related file when the file has none', async () => {
		const covered = runAnswering('survived');
		expect(await runMutant(covered.run, ['the client names the item'], fileOf, OWN)).toEqual({ status: 'survived' });
		expect(covered.calls).toEqual([coveringTestFiles(['the client names the item'], fileOf)]);
		const noOwnFile = runAnswering('survived');
		await runMutant(noOwnFile.run, undefined, fileOf, undefined);
		expect(noOwnFile.calls).toEqual([undefined]);
	});
});

describe('runMutant: a static mutant whose file is unchanged since its last result', () => {
	const fileOf = new Map<string, string>();
	const OWN = '/repo/test/nodes/secretTraces.test.ts';
	const KILLER = '/repo/test/crossModule/outboundProtection.test.ts';
	const runs = (patterns: string[] | undefined, file: string) => (patterns ?? []).some((pattern) => new RegExp(pattern).test(file));

	it('runs its own test file and the files that can change its result first, and stops there when they kill it', async () => {
		const { run, calls } = runAnswering('killed');
		expect(await runMutant(run, undefined, fileOf, OWN, { status: 'Killed', testFiles: [KILLER] })).toEqual({ status: 'killed' });
		expect(calls).toHaveLength(1);
		expect([OWN, KILLER].every((file) => runs(calls[0], file))).toBe(true);
		expect(calls[0]).toHaveLength(2);
	});

	it('a mutant that they do not kill runs every test file importing its file, whatever its last result', async () => {
		for (const status of ['Killed', 'Timeout', 'Survived']) {
			const { run, calls } = runAnswering('survived', 'killed');
			expect(await runMutant(run, undefined, fileOf, OWN, { status, testFiles: [KILLER] })).toEqual({ status: 'killed' });
			expect(calls).toEqual([expect.any(Array), undefined]);
		}
	});
});

describe('lastResultOf: a static mutant\'s last result as a test runner sees the mutant', () => {
	const root = '/sandbox';
	const location = { start: { line: 1, column: 17 }, end: { line: 1, column: 22 } };
	const prior = {
		unchangedTestFiles: ['test/a.test.ts', 'test/killer.test.ts'],
		mutants: { [mutantKey('nodes/a.ts', { mutatorName: 'Regex', replacement: '/k/u', location })]: { status: 'Killed', killerFiles: ['test/killer.test.ts', 'test/gone.test.ts'] } },
	};
	const testFiles = ['/sandbox/test/a.test.ts', '/sandbox/test/killer.test.ts', '/sandbox/test/changed.test.ts', '/sandbox/test/a.test.ts'];
	// Stryker gives a test runner lines and columns counted from 0; its reports count from 1.
	const asGiven = { fileName: '/sandbox/nodes/a.ts', mutatorName: 'Regex', replacement: '/k/u', location: { start: { line: 0, column: 16 }, end: { line: 0, column: 21 } } };

	it('finds it by its place counted from 1, and gives the files of its killers that still exist and every test file changed since', () => {
		expect(lastResultOf(prior, asGiven, root, testFiles)).toEqual({ status: 'Killed', testFiles: ['/sandbox/test/killer.test.ts', '/sandbox/test/changed.test.ts'] });
	});

	it('knows nothing of a mutant elsewhere, or of one at the place as the report counts it', () => {
		expect(lastResultOf(prior, { ...asGiven, fileName: '/sandbox/nodes/b.ts' }, root, testFiles)).toBeUndefined();
		expect(lastResultOf(prior, { ...asGiven, location }, root, testFiles)).toBeUndefined();
	});
});
