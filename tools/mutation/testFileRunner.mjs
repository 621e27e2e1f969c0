// Stryker's jest runner, except that a mutant runs only the test files holding the tests that cover it,
// its own test file early among them (sequencer.js), and a static mutant its own test file and the test
// files that can change its last result first (coveringTestFiles.js).
// The jest runner alone runs every test file that imports the mutated file, with a test-name filter:
// jest loads each of those files (n8n's packages with them) only to skip most of their tests, and a
// mutant of the redaction would load some 40 files where a few hold its covering tests.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { strykerPlugins as jestPlugins } from '@stryker-mutator/jest-runner';
import { commonTokens, declareFactoryPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';

import coveringTestFiles from './coveringTestFiles.js';
import sequencer from './sequencer.js';

const [jestPlugin] = jestPlugins;
// Stryker starts a new runner after a mutant times out, and runs no first run in it: the tests' files
// are kept where every runner finds them (each first run writes them anew).
const KEPT = fileURLToPath(new URL('../../.scratch/mutation/test-files.json', import.meta.url));
// The last results of the static mutants whose file is unchanged, written by run.js before the run.
const PRIOR_STATIC = fileURLToPath(new URL('../../.scratch/mutation/prior-static.json', import.meta.url));

/**
 * @typedef {import('@stryker-mutator/api/test-runner').TestRunner} TestRunner
 * @typedef {TestRunner & { run: (settings: { testFiles?: string[] }) => Promise<unknown> }} JestRunner
 * @param {import('@stryker-mutator/api/plugin').Injector<import('@stryker-mutator/api/plugin').PluginContext>} injector
 */
function testFileRunnerFactory(injector) {
	const runner = /** @type {JestRunner} */ (jestPlugin.factory(injector));
	/** @type {Map<string, string>} test id → its file, from the first (dry) run */
	const fileOf = new Map(fs.existsSync(KEPT) ? JSON.parse(fs.readFileSync(KEPT, 'utf8')) : []);
	/** @type {string[] | undefined} the test files of the mutant being run */
	let testFiles;
	/** @type {import('./changed.js').PriorStatic} */
	const prior = fs.existsSync(PRIOR_STATIC) ? JSON.parse(fs.readFileSync(PRIOR_STATIC, 'utf8')) : { unchangedTestFiles: [], mutants: {} };

	const { run, dryRun, mutantRun } = runner;
	runner.run = (settings) => run.call(runner, testFiles ? { ...settings, testFiles } : settings);
	runner.dryRun = async (options) => {
		const result = await dryRun.call(runner, options);
		fileOf.clear();
		if (result.status === 'complete') for (const test of result.tests) if (test.fileName) fileOf.set(test.id, test.fileName);
		fs.mkdirSync(path.dirname(KEPT), { recursive: true });
		fs.writeFileSync(KEPT, JSON.stringify([...fileOf]));
		return result;
	};
	runner.mutantRun = async (options) => {
		// The mutant as this runner's sandbox holds it: `activeMutant.fileName` is the repository's path.
		const mutant = { ...options.activeMutant, fileName: options.sandboxFileName };
		const mirror = sequencer.mirrorTestFile(process.cwd(), mutant.fileName);
		// Read by sequencer.js, in this process: the mutated file's own test file runs early.
		process.env[sequencer.MIRROR_ENV] = mirror;
		const runWith = async (/** @type {string[] | undefined} */ files) => {
			testFiles = files;
			return await mutantRun.call(runner, options);
		};
		try {
			const last = options.testFilter === undefined ? coveringTestFiles.lastResultOf(prior, mutant, process.cwd(), fileOf.values()) : undefined;
			return await coveringTestFiles.runMutant(runWith, options.testFilter, fileOf, fs.existsSync(mirror) ? mirror : undefined, last);
		} finally {
			testFiles = undefined;
			delete process.env[sequencer.MIRROR_ENV];
		}
	};
	return runner;
}
testFileRunnerFactory.inject = tokens(commonTokens.injector);

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'jest-test-files', testFileRunnerFactory)];
