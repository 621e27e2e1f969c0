// Stryker's jest runner, except that a mutant runs only the test files holding the tests that cover it.
// The jest runner alone runs every test file that imports the mutated file, with a test-name filter:
// jest loads each of those files (n8n's packages with them) only to skip most of their tests, and a
// mutant of the redaction would load some 40 files where a few hold its covering tests.
import { strykerPlugins as jestPlugins } from '@stryker-mutator/jest-runner';
import { commonTokens, declareFactoryPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';

import coveringTestFiles from './coveringTestFiles.js';

const [jestPlugin] = jestPlugins;

/**
 * @typedef {import('@stryker-mutator/api/test-runner').TestRunner} TestRunner
 * @typedef {TestRunner & { run: (settings: { testFiles?: string[] }) => Promise<unknown> }} JestRunner
 * @param {import('@stryker-mutator/api/plugin').Injector<import('@stryker-mutator/api/plugin').PluginContext>} injector
 */
function testFileRunnerFactory(injector) {
	const runner = /** @type {JestRunner} */ (jestPlugin.factory(injector));
	/** @type {Map<string, string>} test id → its file, from the first (dry) run */
	const fileOf = new Map();
	/** @type {string[] | undefined} the test files of the mutant being run */
	let testFiles;

	const { run, dryRun, mutantRun } = runner;
	runner.run = (settings) => run.call(runner, testFiles ? { ...settings, testFiles } : settings);
	runner.dryRun = async (options) => {
		const result = await dryRun.call(runner, options);
		if (result.status === 'complete') for (const test of result.tests) if (test.fileName) fileOf.set(test.id, test.fileName);
		return result;
	};
	runner.mutantRun = async (options) => {
		testFiles = coveringTestFiles.coveringTestFiles(options.testFilter, fileOf);
		try {
			return await mutantRun.call(runner, options);
		} finally {
			testFiles = undefined;
		}
	};
	return runner;
}
testFileRunnerFactory.inject = tokens(commonTokens.injector);

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'jest-test-files', testFileRunnerFactory)];
