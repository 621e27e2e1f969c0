import { mergeReports } from '../../../tools/mutation/merge';
import { progressReport } from '../../../tools/mutation/progress';

describe('progressReport: what a stopped mutation run found, as an incremental report', () => {
	const root = '/repo';
	const mutant = (fileName: string, id: string, status: string) => ({
		fileName,
		id,
		mutatorName: 'EqualityOperator',
		replacement: 'a !== b',
		status,
		location: { start: { line: 3, column: 5 }, end: { line: 3, column: 12 } },
		coveredBy: ['redaction hides the key'],
		killedBy: status === 'Killed' ? ['redaction hides the key'] : [],
	});
	const report = progressReport({
		root,
		sources: new Map([
			['/repo/nodes/a.ts', 'const a = 1;\n'],
			['/repo/nodes/carried.ts', 'const c = 1;\n'],
		]),
		planned: new Map([
			['/repo/nodes/a.ts', 7],
			['/repo/nodes/carried.ts', 1],
		]),
		tests: [
			{ id: 'redaction hides the key', name: 'redaction hides the key', fileName: '/repo/test/a.test.ts', startPosition: { line: 0, column: 0 } },
			{ id: 'a test of no file', name: 'a test of no file' },
		],
		testSources: new Map([['/repo/test/a.test.ts', "it('hides the key', () => {});\n"]]),
		tested: [
			mutant('/repo/nodes/a.ts', '1', 'Killed'),
			mutant('/repo/nodes/a.ts', '2', 'Survived'),
			mutant('/repo/nodes/edited.ts', '3', 'Killed'),
			mutant('/repo/nodes/carried.ts', '4', 'Killed'),
		],
		mutated: new Set(['/repo/nodes/a.ts', '/repo/nodes/edited.ts']),
	});

	it("keeps each tested mutant under its file's path and the text the run began with", () => {
		expect(Object.keys(report.files)).toEqual(['nodes/a.ts']);
		expect(report.files['nodes/a.ts']).toEqual({
			language: 'typescript',
			source: 'const a = 1;\n',
			mutants: [expect.objectContaining({ id: '1', status: 'Killed', killedBy: ['redaction hides the key'] }), expect.objectContaining({ id: '2', status: 'Survived' })],
		});
		expect(report.files['nodes/a.ts'].mutants[0]).not.toHaveProperty('fileName');
	});

	it('leaves out the results of a file the run does not mutate, which Stryker carries over from the results it started from', () => {
		expect(JSON.stringify(report.files)).not.toContain('carried');
	});

	it('names the files the run mutates, by path, for run.js to merge only those', () => {
		expect(report.mutated).toEqual(['nodes/a.ts', 'nodes/edited.ts']);
	});

	it('says how many mutants of each file it mutates the run was to test, by path', () => {
		expect(report.planned).toEqual({ 'nodes/a.ts': 7 });
	});

	it('leaves out a result for a file whose text the run did not read, which could not be matched to its code later', () => {
		expect(JSON.stringify(report.files)).not.toContain('edited');
	});

	it("keeps the tests by file with the file's text, counting lines and columns from 1 as the report does", () => {
		expect(report.testFiles['test/a.test.ts']).toEqual({
			source: "it('hides the key', () => {});\n",
			tests: [{ id: 'redaction hides the key', name: 'redaction hides the key', location: { start: { line: 1, column: 1 } } }],
		});
		expect(report.testFiles['']).toEqual({ source: undefined, tests: [{ id: 'a test of no file', name: 'a test of no file' }] });
	});

	it('merges into the kept results as a run of its own, its tests still named', () => {
		const merged = mergeReports({ files: {} }, report, () => true);
		const [killed] = merged.files['nodes/a.ts'].mutants;
		const names = new Map(Object.values(merged.testFiles ?? {}).flatMap(({ tests }) => tests.map((test) => [test.id, test.name])));
		expect(killed.killedBy?.map((id) => names.get(id))).toEqual(['redaction hides the key']);
	});
});
