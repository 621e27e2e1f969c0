'use strict';
// The unit and workflows projects of jest.config.js as one flat config, for Stryker's jest runner:
// it records which test reaches which mutant through the top-level testEnvironment, which each
// project's own would override. That environment is jest's node one (the unit project's), which in a
// mutant's run skips the tests left once one has failed (bailEnvironment.js). Never the e2e, package or load tests: they start real n8n or pack;
// nor the tools' and docs' tests: they test no product file, and the docs' drift test reads git, which
// Stryker's copy outside the repository does not have.
const path = require('node:path');

const rootDir = path.resolve(__dirname, '..', '..');
/** @typedef {{ displayName: string, testEnvironment: string, transform: object, testMatch: string[] }} Project */
// Required by its path, so that tools' type check does not take in jest.config.js, which is not typed.
/** @type {{ projects: Project[] }} */
const { projects } = require(path.join(rootDir, 'jest.config.js'));

const [unit, workflows] = ['unit', 'workflows'].map((name) => {
	const project = projects.find((candidate) => candidate.displayName === name);
	if (!project) throw new Error(`jest.config.js has no project ${name}`);
	return project;
});

module.exports = {
	rootDir,
	testEnvironment: path.join(__dirname, 'bailEnvironment.js'),
	transform: unit.transform,
	testMatch: [...unit.testMatch, ...workflows.testMatch],
	// Nor failedRequestFiles.test.ts: it lists the files whose code ran during a request from V8's
	// coverage, which more than the request can move (timers left by earlier test files, among what
	// could); it "killed" mutants no input tells apart.
	testPathIgnorePatterns: ['<rootDir>/test/(e2e|package|load|tools|docs)/', '<rootDir>/test/crossModule/failedRequestFiles\\.test\\.ts$'],
	// Jest's 5 s, which every test here keeps in `npm test`, raised to 60 s: with two runs on two
	// cores a test slowed by load failed 5 s and "killed" mutants no input tells apart, while one that
	// takes 60 s hangs. It ends a hanging mutant's run at that test; Stryker's own time-out, twice the
	// time of every test that covers the mutant plus 30 s, often waited many minutes with the CPU idle.
	testTimeout: 60_000,
	setupFiles: [path.join(__dirname, 'jestSetup.js')],
	// A mutant's likely killers first: with the skipping above, the sooner one fails, the shorter its run.
	testSequencer: path.join(__dirname, 'sequencer.js'),
};
