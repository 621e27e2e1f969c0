import fc from 'fast-check';

import { mergeReports } from '../../../tools/mutation/merge';

type Report = Parameters<typeof mergeReports>[0];

const testName = (report: Report, id: string) =>
	Object.entries(report.testFiles ?? {}).flatMap(([file, { tests }]) => tests.filter((test) => test.id === id).map((test) => `${file}: ${test.name}`))[0];

describe("mergeReports: a partial run's results kept beside the earlier runs'", () => {
	const kept: Report = {
		files: {
			'nodes/a.ts': { mutants: [{ id: '0', coveredBy: ['0', '1'], killedBy: ['1'] }] },
			'nodes/b.ts': { mutants: [{ id: '1', coveredBy: ['0'], killedBy: ['0'] }] },
			'nodes/gone.ts': { mutants: [{ id: '2', coveredBy: ['0'], killedBy: ['0'] }] },
		},
		testFiles: { 'test/a.test.ts': { tests: [{ id: '0', name: 'redacts' }, { id: '1', name: 'pauses' }] } },
	};
	// The newer run numbers the same tests otherwise, and one of them is gone.
	const run: Report = {
		files: { 'nodes/b.ts': { mutants: [{ id: '0', coveredBy: ['5'], killedBy: [] }] } },
		testFiles: { 'test/a.test.ts': { tests: [{ id: '5', name: 'redacts' }] }, 'test/c.test.ts': { tests: [{ id: '4', name: 'stops' }] } },
	};
	const merged = mergeReports(kept, run, (file) => file !== 'nodes/gone.ts');

	it("takes the run's files, keeps the others still tested, and drops files no longer tested", () => {
		expect(Object.keys(merged.files)).toEqual(['nodes/a.ts', 'nodes/b.ts']);
		expect(merged.files['nodes/b.ts'].mutants[0].killedBy).toEqual([]);
	});

	it('keeps each result naming the same tests by file and name, and drops a test the newer run no longer has', () => {
		const [mutant] = merged.files['nodes/a.ts'].mutants;
		expect(mutant.coveredBy?.map((id) => testName(merged, id))).toEqual(['test/a.test.ts: redacts']);
		expect(mutant.killedBy).toEqual([]);
		expect(testName(merged, merged.files['nodes/b.ts'].mutants[0].coveredBy?.[0] ?? '')).toBe('test/a.test.ts: redacts');
	});

	it("keeps the older text of a test file that covers kept mutants the run did not test again, and takes the run's for one that covers none", () => {
		const older: Report = {
			files: { 'nodes/kept.ts': { mutants: [{ id: '0', coveredBy: ['0'] }] }, 'nodes/run.ts': { mutants: [{ id: '1', coveredBy: ['1'] }] } },
			testFiles: { 'test/kept.test.ts': { source: 'old', tests: [{ id: '0', name: 'k' }] }, 'test/run.test.ts': { source: 'old', tests: [{ id: '1', name: 'r' }] } },
		};
		const newer: Report = {
			files: { 'nodes/run.ts': { mutants: [{ id: '0', coveredBy: ['1'] }] } },
			testFiles: { 'test/kept.test.ts': { source: 'new', tests: [{ id: '0', name: 'k' }] }, 'test/run.test.ts': { source: 'new', tests: [{ id: '1', name: 'r' }] } },
		};
		const { testFiles } = mergeReports(older, newer, () => true);
		expect(testFiles?.['test/kept.test.ts'].source).toBe('old');
		expect(testFiles?.['test/run.test.ts'].source).toBe('new');
	});

	it("reads the tests of a test file kept with its older text at their places in that text, and a test that text lacks at none", () => {
		const place = (line: number) => ({ start: { line, column: 1 } });
		const older: Report = {
			files: { 'nodes/kept.ts': { mutants: [{ id: '0', coveredBy: ['0'] }] } },
			testFiles: { 'test/kept.test.ts': { source: 'old', tests: [{ id: '0', name: 'k', location: place(3) }] } },
		};
		const newer: Report = {
			files: { 'nodes/run.ts': { mutants: [{ id: '0', coveredBy: ['0', '1'] }] } },
			testFiles: { 'test/kept.test.ts': { source: 'new', tests: [{ id: '0', name: 'k', location: place(9) }, { id: '1', name: 'added', location: place(20) }] } },
		};
		const { testFiles } = mergeReports(older, newer, () => true);
		expect(testFiles?.['test/kept.test.ts'].tests).toEqual([
			{ id: '0', name: 'k', location: place(3) },
			{ id: '1', name: 'added' },
		]);
	});

	it('keeps the kept results of a file the run reports but did not mutate, and takes none it holds alone (Stryker carries those over without their static flag)', () => {
		const older: Report = {
			files: { 'nodes/static.ts': { mutants: [{ id: '0', static: true, killedBy: ['0'] }] } },
			testFiles: { 'test/static.test.ts': { tests: [{ id: '0', name: 's' }] } },
		};
		const carried: Report = {
			files: { 'nodes/static.ts': { mutants: [{ id: '0', static: false, killedBy: [] }] }, 'nodes/new.ts': { mutants: [{ id: '1' }] } },
			testFiles: { 'test/static.test.ts': { tests: [{ id: '0', name: 's' }] } },
		};
		const { files } = mergeReports(older, carried, () => true, (file) => file === 'nodes/mutated.ts');
		expect(files['nodes/static.ts'].mutants).toEqual([{ id: '0', static: true, killedBy: ['0'] }]);
		expect(Object.keys(files)).toEqual(['nodes/static.ts']);
	});

	it('gives every mutant and every test one id of its own', () => {
		const mutantIds = Object.values(merged.files).flatMap(({ mutants }) => mutants.map((mutant) => mutant.id));
		const testIds = Object.values(merged.testFiles ?? {}).flatMap(({ tests }) => tests.map((test) => test.id));
		expect(new Set(mutantIds).size).toBe(mutantIds.length);
		expect(new Set(testIds).size).toBe(testIds.length);
	});

	it('maps every test a result names to the test of that file and name, whatever the names (full Unicode)', () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), fc.nat(), (names, seed) => {
				const ids = names.map((_, index) => String(names.length - index));
				const report: Report = {
					files: { 'nodes/x.ts': { mutants: [{ id: '9', coveredBy: [...ids], killedBy: [ids[seed % ids.length]] }] } },
					testFiles: { 'test/x.test.ts': { tests: names.map((name, index) => ({ id: ids[index], name })) } },
				};
				const result = mergeReports({ files: {} }, report, () => true);
				const [mutant] = result.files['nodes/x.ts'].mutants;
				expect(mutant.coveredBy?.map((id) => testName(result, id))).toEqual(names.map((name) => `test/x.test.ts: ${name}`));
				expect(mutant.killedBy?.map((id) => testName(result, id))).toEqual([`test/x.test.ts: ${names[seed % names.length]}`]);
			}),
		);
	});
});
