// A Stryker reporter that keeps what a run has found so far in .scratch/mutation/progress.json
// (progress.js says why), written at most every 30 seconds and removed by run.js once a run ends.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';

import progress from './progress.js';

const PROGRESS_FILE = fileURLToPath(new URL('../../.scratch/mutation/progress.json', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EVERY_MS = 30_000;

const readAll = (/** @type {Iterable<string>} */ files) => new Map([...files].map((file) => [file, fs.readFileSync(file, 'utf8')]));

class ProgressReporter {
	static inject = tokens(commonTokens.fileDescriptions);
	/** @type {import('./progress.js').DryRunTest[]} */
	tests = [];
	/** @type {Map<string, string>} */
	testSources = new Map();
	/** @type {Map<string, string>} */
	sources = new Map();
	/** @type {Map<string, number>} */
	planned = new Map();
	/** @type {import('./progress.js').TestedMutant[]} */
	tested = [];
	lastWritten = 0;

	/** @param {import('@stryker-mutator/api/core').FileDescriptions} files  Stryker's: which files the run mutates */
	constructor(files) {
		this.mutated = new Set(Object.entries(files).flatMap(([file, { mutate }]) => (mutate === false ? [] : [path.resolve(file)])));
	}

	/** @param {import('@stryker-mutator/api/report').DryRunCompletedEvent} event */
	onDryRunCompleted({ result }) {
		this.tests = result.tests.map(({ id, name, fileName, startPosition }) => ({ id, name, fileName, startPosition }));
		this.testSources = readAll(new Set(this.tests.flatMap(({ fileName }) => (fileName ? [fileName] : []))));
	}

	/** @param {import('@stryker-mutator/api/report').MutationTestingPlanReadyEvent} event */
	onMutationTestingPlanReady({ mutantPlans }) {
		// Read as the run begins: a file edited while it runs must not be paired with results for its old text.
		this.sources = readAll(new Set(mutantPlans.map(({ mutant }) => mutant.fileName)));
		for (const { mutant } of mutantPlans) this.planned.set(mutant.fileName, (this.planned.get(mutant.fileName) ?? 0) + 1);
	}

	/** @param {import('@stryker-mutator/api/core').MutantResult} result */
	onMutantTested(result) {
		this.tested.push(result);
		if (Date.now() - this.lastWritten >= EVERY_MS) this.write();
	}

	write() {
		this.lastWritten = Date.now();
		const report = progress.progressReport({ root: ROOT, sources: this.sources, planned: this.planned, tests: this.tests, testSources: this.testSources, tested: this.tested, mutated: this.mutated });
		fs.mkdirSync(path.dirname(PROGRESS_FILE), { recursive: true });
		// Whole or not at all: a run stopped while writing leaves the last whole file.
		fs.writeFileSync(`${PROGRESS_FILE}.part`, JSON.stringify(report));
		fs.renameSync(`${PROGRESS_FILE}.part`, PROGRESS_FILE);
	}
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'progress-kept', ProgressReporter)];
