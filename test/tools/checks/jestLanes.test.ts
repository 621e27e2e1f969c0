import { mergeResults } from '../../../tools/checks/jestLanes';

const lane = (startTime: number, passed: number, failed: number, files: string[], success = failed === 0) => ({
	success,
	startTime,
	numPassedTests: passed,
	numFailedTests: failed,
	numPendingTests: 1,
	numTotalTests: passed + failed + 1,
	numRuntimeErrorTestSuites: 0,
	testResults: files.map((name) => ({ name })),
});

describe("the two jest lanes' results as one", () => {
	it('adds up the counts, lists every file, starts at the earlier start, and succeeds when both lanes did', () => {
		const merged = mergeResults([lane(500, 10, 0, ['a', 'b']), lane(100, 7, 0, ['c'])]);
		expect(merged).toMatchObject({ success: true, startTime: 100, numPassedTests: 17, numFailedTests: 0, numPendingTests: 2, numTotalTests: 19, numRuntimeErrorTestSuites: 0 });
		expect(merged.testResults.map(({ name }: { name: string }) => name)).toEqual(['a', 'b', 'c']);
	});

	it('fails when one lane failed', () => {
		expect(mergeResults([lane(0, 3, 1, ['a']), lane(0, 5, 0, ['b'])])).toMatchObject({ success: false, numFailedTests: 1 });
	});

	it('fails, counting a suite that could not run, when a lane wrote no results', () => {
		expect(mergeResults([undefined, lane(0, 5, 0, ['b'])])).toMatchObject({ success: false, numPassedTests: 5, numRuntimeErrorTestSuites: 1 });
		expect(mergeResults([undefined, undefined])).toMatchObject({ success: false, numRuntimeErrorTestSuites: 2, testResults: [] });
		// Added to the suites the written lane could not run.
		expect(mergeResults([undefined, { ...lane(0, 5, 0, ['b']), numRuntimeErrorTestSuites: 1 }])).toMatchObject({ numRuntimeErrorTestSuites: 2 });
	});
});
