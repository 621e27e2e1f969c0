import fc from 'fast-check';

import { mutantKey, planAfterRun, priorStaticResults, unfinishedIn, untestedFiles, withoutStaleResults } from '../../../tools/mutation/changed';

describe('untestedFiles: the guarantee files a partial mutation run must test', () => {
	const files = ['nodes/a.ts', 'nodes/b.ts', 'nodes/c.ts'];
	const now: Record<string, string> = { 'nodes/a.ts': 'const a = 1;\n', 'nodes/b.ts': 'const b = 2;\n', 'nodes/c.ts': 'const c = 3;\n' };
	const read = (file: string) => now[file];

	it('every file when no incremental file exists yet', () => {
		expect(untestedFiles(files, undefined, read)).toEqual(files);
	});

	it('a file the incremental file never tested, and one whose text changed since; not one tested as it is', () => {
		const incremental = { files: { 'nodes/a.ts': { source: now['nodes/a.ts'] }, 'nodes/b.ts': { source: 'const b = 1;\n' } } };
		expect(untestedFiles(files, incremental, read)).toEqual(['nodes/b.ts', 'nodes/c.ts']);
	});

	it('a file one of whose covering test files changed or is gone; not one covered only by unchanged tests', () => {
		const tests = { 'test/a.test.ts': 'it("a")', 'test/b.test.ts': 'it("b")', 'test/gone.test.ts': 'it("g")' };
		const readAll = (file: string) => ({ ...now, 'test/a.test.ts': 'it("a, weakened")', 'test/b.test.ts': tests['test/b.test.ts'] } as Record<string, string>)[file];
		const incremental = {
			files: {
				'nodes/a.ts': { source: now['nodes/a.ts'], mutants: [{ coveredBy: ['2'] }, { coveredBy: ['1', '2'] }] },
				'nodes/b.ts': { source: now['nodes/b.ts'], mutants: [{ coveredBy: ['2'] }, {}] },
				'nodes/c.ts': { source: now['nodes/c.ts'], mutants: [{ coveredBy: ['3'] }] },
			},
			testFiles: {
				'test/a.test.ts': { source: tests['test/a.test.ts'], tests: [{ id: '1' }] },
				'test/b.test.ts': { source: tests['test/b.test.ts'], tests: [{ id: '2' }] },
				'test/gone.test.ts': { source: tests['test/gone.test.ts'], tests: [{ id: '3' }] },
			},
		};
		expect(untestedFiles(files, incremental, readAll)).toEqual(['nodes/a.ts', 'nodes/c.ts']);
	});

	it('a file a saved run stopped part-way in (mutation/unfinished.json), until it has as many results as it was to test', () => {
		const tested = (count: number) => ({ source: now['nodes/a.ts'], mutants: Array.from({ length: count }, () => ({})) });
		expect(untestedFiles(['nodes/a.ts'], { files: { 'nodes/a.ts': tested(29) } }, read, { 'nodes/a.ts': 109 })).toEqual(['nodes/a.ts']);
		expect(untestedFiles(['nodes/a.ts'], { files: { 'nodes/a.ts': tested(109) } }, read, { 'nodes/a.ts': 109 })).toEqual([]);
		expect(untestedFiles(['nodes/a.ts'], { files: { 'nodes/a.ts': tested(29) } }, read)).toEqual([]);
	});

	it("with changedOnly (a run that keeps nothing: CI's), only the files a change can have broken, not one left part-way or holding a stale result", () => {
		const incremental = {
			files: {
				'nodes/a.ts': { source: now['nodes/a.ts'], mutants: [{ status: 'Killed', coveredBy: ['1'] }] },
				'nodes/b.ts': { source: now['nodes/b.ts'], mutants: [{ status: 'Killed', coveredBy: [] }] },
				'nodes/c.ts': { source: 'const c = 0;\n', mutants: [] },
			},
			testFiles: { 't.ts': { source: 't', tests: [{ id: '1' }] } },
		};
		const readAll = (file: string) => ({ ...now, 't.ts': 't' } as Record<string, string>)[file];
		const partWay = { 'nodes/a.ts': 109 };
		expect(untestedFiles(files, incremental, readAll, partWay)).toEqual(files);
		expect(untestedFiles(files, incremental, readAll, partWay, { changedOnly: true })).toEqual(['nodes/c.ts']);
		const weakened = (file: string) => ({ ...now, 't.ts': 't, weakened' } as Record<string, string>)[file];
		expect(untestedFiles(files, incremental, weakened, partWay, { changedOnly: true })).toEqual(['nodes/a.ts', 'nodes/c.ts']);
	});

	it('compares the whole text, whatever it holds (full Unicode)', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (tested, current) => {
				const listed = untestedFiles(['nodes/x.ts'], { files: { 'nodes/x.ts': { source: tested } } }, () => current);
				expect(listed).toEqual(tested === current ? [] : ['nodes/x.ts']);
			}),
		);
	});
});

describe('withoutStaleResults: results Stryker reuses but would not give today', () => {
	const mutant = (status: string, coveredBy?: string[]) => ({ status, ...(coveredBy ? { coveredBy } : {}) });

	it('drops a tested result no test covers (a static mutant once tested through a reloaded module), and keeps every other', () => {
		const kept = [mutant('Killed', ['1']), mutant('Survived', ['2']), mutant('Timeout', ['1']), mutant('Ignored', []), mutant('NoCoverage', []), mutant('CompileError')];
		const stale = [mutant('Survived', []), mutant('Killed', []), mutant('Timeout')];
		const incremental = { files: { 'nodes/a.ts': { source: 'a', mutants: [...stale, ...kept] } }, testFiles: {} };
		expect(withoutStaleResults(incremental)).toEqual({ files: { 'nodes/a.ts': { source: 'a', mutants: kept } }, testFiles: {} });
	});

	it('keeps a killed static mutant\'s result (no covering test), and drops a static survivor, to be tested with the tests as they are now', () => {
		const killed = { status: 'Killed', coveredBy: [], killedBy: ['3'], static: true };
		const survived = { status: 'Survived', coveredBy: [], static: true };
		const incremental = { files: { 'nodes/a.ts': { source: 'a', mutants: [killed, survived] } }, testFiles: {} };
		expect(withoutStaleResults(incremental).files['nodes/a.ts'].mutants).toEqual([killed]);
	});

	it("drops a kill by jest's default 5 s per test, which load alone could give, and keeps a kill by the runs' 60 s or by a failed assertion", () => {
		const killedBy = (statusReason: string) => ({ status: 'Killed', coveredBy: ['1'], killedBy: ['1'], statusReason });
		const byTimeLimit = killedBy('Error: thrown: "Exceeded timeout of 5000 ms for a test.\nAdd a timeout value to this test to increase the timeout');
		const byHang = killedBy('Error: thrown: "Exceeded timeout of 60000 ms for a test.\nAdd a timeout value to this test to increase the timeout');
		const byAssertion = killedBy('Error: expect(received).toBe(expected)');
		const incremental = { files: { 'nodes/a.ts': { source: 'a', mutants: [byTimeLimit, byHang, byAssertion] } }, testFiles: {} };
		expect(withoutStaleResults(incremental).files['nodes/a.ts'].mutants).toEqual([byHang, byAssertion]);
		expect(untestedFiles(['nodes/a.ts'], incremental, (name: string) => ({ 'nodes/a.ts': 'a' })[name])).toEqual(['nodes/a.ts']);
	});

	it('drops them only from the files the run tests: a file it does not test is carried over as it was given, and a result dropped there would be lost when the run is saved', () => {
		const staleOne = { status: 'Killed', coveredBy: [] };
		const staticSurvivor = { status: 'Survived', coveredBy: [], static: true };
		const entry = (source: string) => ({ source, mutants: [staleOne, staticSurvivor] });
		const incremental = { files: { 'nodes/a.ts': entry('a'), 'nodes/b.ts': entry('b') }, testFiles: {} };
		const files = withoutStaleResults(incremental, (file) => file === 'nodes/a.ts').files;
		expect(files['nodes/a.ts'].mutants).toEqual([]);
		expect(files['nodes/b.ts']).toEqual(entry('b'));
	});

	it('does not make untestedFiles pick a file for its static survivor alone (an equivalent one would be tested in every run)', () => {
		const incremental = { files: { 'nodes/a.ts': { source: 'a', mutants: [{ status: 'Survived', coveredBy: [], static: true }] } }, testFiles: {} };
		expect(untestedFiles(['nodes/a.ts'], incremental, (name: string) => ({ 'nodes/a.ts': 'a' })[name])).toEqual([]);
	});

	it('makes untestedFiles pick the file holding one, its text and tests unchanged', () => {
		const file = (mutants: object[]) => ({ files: { 'nodes/a.ts': { source: 'a', mutants } }, testFiles: { 't.ts': { source: 't', tests: [{ id: '1' }] } } });
		const read = (name: string) => ({ 'nodes/a.ts': 'a', 't.ts': 't' })[name];
		expect(untestedFiles(['nodes/a.ts'], file([mutant('Survived', ['1']), mutant('Survived', [])]), read)).toEqual(['nodes/a.ts']);
		expect(untestedFiles(['nodes/a.ts'], file([mutant('Survived', ['1']), mutant('Ignored', [])]), read)).toEqual([]);
	});
});

describe('unfinishedIn: the files with fewer results than a run planned', () => {
	it('names each with its results and its plan, and leaves out a file with all of them or more', () => {
		const results = (count: number) => ({ mutants: Array.from({ length: count }, () => ({})) });
		const report = { files: { 'nodes/part.ts': results(434), 'nodes/done.ts': results(93), 'nodes/more.ts': results(12) } };
		expect(unfinishedIn(report, { 'nodes/part.ts': 705, 'nodes/done.ts': 93, 'nodes/more.ts': 10, 'nodes/none.ts': 4 })).toEqual([
			{ file: 'nodes/part.ts', tested: 434, planned: 705 },
			{ file: 'nodes/none.ts', tested: 0, planned: 4 },
		]);
	});
});

describe('planAfterRun: what is still to test once a run ended', () => {
	it('drops the plan of a file the run tested to the end, whatever its count was, and adds the resumed run\'s plan for the others', () => {
		const kept = { 'nodes/shrunk.ts': 705, 'nodes/other.ts': 40 };
		expect(planAfterRun(kept, { 'nodes/resumed.ts': 12 }, (file) => file === 'nodes/shrunk.ts')).toEqual({ 'nodes/other.ts': 40, 'nodes/resumed.ts': 12 });
		expect(planAfterRun(kept, {}, () => true)).toEqual({});
	});
});

describe('priorStaticResults: what a run knows of each static mutant before it starts', () => {
	const at = (line: number, column: number) => ({ start: { line, column }, end: { line, column: column + 5 } });
	const source = 'const PATTERN = /key/u;\n';
	const tests = { 'test/a.test.ts': 'it("a")', 'test/b.test.ts': 'it("b")' };
	const incremental = {
		files: {
			'nodes/a.ts': {
				source,
				mutants: [
					{ static: true, status: 'Killed', killedBy: ['1', '2', '9'], mutatorName: 'Regex', replacement: '/kay/u', location: at(1, 17) },
					{ static: true, status: 'Survived', mutatorName: 'Regex', replacement: '/k/u', location: at(1, 17) },
					{ static: true, status: 'CompileError', mutatorName: 'StringLiteral', replacement: '""', location: at(1, 1) },
					{ status: 'Survived', coveredBy: ['1'], mutatorName: 'BlockStatement', replacement: '{}', location: at(2, 1) },
					{ static: true, status: 'Killed', killedBy: ['1'], statusReason: 'Error: thrown: "Exceeded timeout of 5000 ms for a test', mutatorName: 'Regex', replacement: '/y/u', location: at(1, 17) },
				],
			},
			'nodes/b.ts': { source: 'old text', mutants: [{ static: true, status: 'Survived', mutatorName: 'Regex', replacement: '/k/u', location: at(1, 17) }] },
		},
		testFiles: {
			'test/a.test.ts': { source: tests['test/a.test.ts'], tests: [{ id: '1' }] },
			'test/b.test.ts': { source: 'it("b, before")', tests: [{ id: '2' }] },
		},
	};
	const read = (file: string) => ({ 'nodes/a.ts': source, 'nodes/b.ts': 'new text', ...tests } as Record<string, string>)[file];

	it('each tested static mutant of an unchanged file, by its name across runs, with the files of the tests that killed it', () => {
		const { mutants } = priorStaticResults(incremental, read);
		expect(mutants).toEqual({
			[mutantKey('nodes/a.ts', { mutatorName: 'Regex', replacement: '/kay/u', location: at(1, 17) })]: { status: 'Killed', killerFiles: ['test/a.test.ts', 'test/b.test.ts'] },
			[mutantKey('nodes/a.ts', { mutatorName: 'Regex', replacement: '/k/u', location: at(1, 17) })]: { status: 'Survived', killerFiles: [] },
		});
	});

	it('the test files whose text is the text last tested, and no other', () => {
		expect(priorStaticResults(incremental, read).unchangedTestFiles).toEqual(['test/a.test.ts']);
	});

	it('after a resumed run, the test files unchanged since the older results, which were tested with older texts', () => {
		const older = { 'test/a.test.ts': { source: 'it("a, before")' }, 'test/b.test.ts': { source: tests['test/b.test.ts'] } };
		expect(priorStaticResults(incremental, read, older).unchangedTestFiles).toEqual(['test/b.test.ts']);
	});

	it('names two mutants apart by file, mutator, replacement and every end of their place', () => {
		const mutant = { mutatorName: 'Regex', replacement: '/k/u', location: at(1, 17) };
		const others = [
			['nodes/b.ts', mutant],
			['nodes/a.ts', { ...mutant, mutatorName: 'StringLiteral' }],
			['nodes/a.ts', { ...mutant, replacement: '/j/u' }],
			['nodes/a.ts', { ...mutant, location: { ...at(1, 17), start: { line: 2, column: 17 } } }],
			['nodes/a.ts', { ...mutant, location: { ...at(1, 17), start: { line: 1, column: 18 } } }],
			['nodes/a.ts', { ...mutant, location: { ...at(1, 17), end: { line: 3, column: 22 } } }],
			['nodes/a.ts', { ...mutant, location: { ...at(1, 17), end: { line: 1, column: 23 } } }],
		] as const;
		const keys = new Set([mutantKey('nodes/a.ts', mutant), ...others.map(([file, other]) => mutantKey(file, other))]);
		expect(keys.size).toBe(others.length + 1);
	});
});
