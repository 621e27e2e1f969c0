// Mutation testing of the modules that keep users safe (docs/development.md, "Mutation testing").
// `npm run test:mutation` (tools/mutation/run.js) runs it; `-- --mutate <file>` narrows it. Incremental: mutation/incremental.json
// keeps each mutant's result, and a run re-tests only the mutants whose code or covering tests changed.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files whose guarantees the suite must notice breaking: redaction, keys, no re-send, Stop, the trigger's secret and keys. */
export const GUARANTEE_FILES = [
	'nodes/VideoPlatform/transport/*.ts',
	'nodes/VideoPlatform/shared/secretTraces.ts',
	'nodes/VideoPlatform/shared/credentials.ts',
	'nodes/VideoPlatform/shared/deliveryKey.ts',
	'credentials/*.ts',
	'nodes/VideoPlatform/trigger/secret.ts',
	'nodes/VideoPlatform/trigger/webhook.ts',
	'nodes/VideoPlatform/trigger/delivery.ts',
	'nodes/VideoPlatform/trigger/body.ts',
	'nodes/VideoPlatform/trigger/rawJson.ts',
	'nodes/VideoPlatform/trigger/jsonWalk.ts',
	'nodes/VideoPlatform/trigger/canonicalJson.ts',
	'nodes/VideoPlatform/trigger/deliveryKey.ts',
	'nodes/VideoPlatform/actions/router.ts',
	'nodes/VideoPlatform/actions/oneCheckAtATime.ts',
	'nodes/VideoPlatform/actions/keysKept.ts',
	'nodes/VideoPlatform/actions/rememberedKeys.ts',
	'nodes/VideoPlatform/actions/webhookDelivery/*.ts',
];

export default {
	mutate: GUARANTEE_FILES,
	// The jest runner, with each mutant running only the test files that cover it (testFileRunner.mjs).
	testRunner: 'jest-test-files',
	plugins: ['@stryker-mutator/*', ...['./testFileRunner.mjs', './progressReporter.mjs'].map((plugin) => fileURLToPath(new URL(plugin, import.meta.url)))],
	jest: { projectType: 'custom', configFile: 'tools/mutation/jest.config.js', enableFindRelatedTests: true },
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.json',
	typescriptChecker: { prioritizePerformanceOverAccuracy: true },
	coverageAnalysis: 'perTest',
	incremental: true,
	incrementalFile: 'mutation/incremental.json',
	// Two cores shared by several people: one test process, and time enough under load (a 10 s margin on a
	// loaded machine timed out 44 of 316 mutants, and a time-out counts as detected).
	concurrency: 1,
	// Each jest run leaves memory behind in the runner: after some hundred mutants it spent a third of
	// its time collecting garbage, at a fifth of its first speed. A fresh runner every 20 mutants.
	maxTestRunnerReuse: 20,
	timeoutMS: 30_000,
	timeoutFactor: 2,
	dryRunTimeoutMinutes: 90,
	// Static mutants (module-level constants: the redaction's patterns among them) are run, each
	// through its own file's test file first, and every test file importing its file only if that
	// one does not notice it (runMutant in coveringTestFiles.js).
	ignoreStatic: false,
	// progress-kept: what a run has found so far, so that a stopped partial run resumes (progressReporter.mjs).
	reporters: ['json', 'clear-text', 'progress', 'progress-kept'],
	jsonReporter: { fileName: '.scratch/mutation/report.json' },
	htmlReporter: { fileName: '.scratch/mutation/report.html' },
	// Outside the repository: `eslint .` (npm run lint) would lint the sandbox's instrumented copies.
	tempDirName: join(tmpdir(), `videoplatform-stryker-${process.getuid?.() ?? 'user'}`),
	ignorePatterns: ['/dist', '/bench', '/.scratch', '/mutation', '/coverage', '/release', '/.n8n-local'],
	cleanTempDir: 'always',
};
