import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { scratchRoot } from '../../tools/common/paths';

/** Where failed real-n8n tests keep their logs; .scratch is gitignored and outlives the run's folders. */
export const FAILURE_LOGS_ROOT = path.join(scratchRoot, 'e2e-failure-logs');
const TAIL_LINES = 25;
const LINE_CHARS = 400;

/** The last lines of a log, each cut to a readable length. */
function tail(file: string) {
	const lines = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-TAIL_LINES);
	return lines.map((line) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line)).join('\n');
}

/**
 * Copies the logs to a new folder under FAILURE_LOGS_ROOT; returns a note that names the folder and
 * shows the end of each log, for a failure message.
 */
export function keepLogs(suite: string, why: string, logs: Record<string, string>): string {
	const folder = path.join(FAILURE_LOGS_ROOT, `${suite}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
	mkdirSync(folder, { recursive: true });
	const present = Object.entries(logs).filter(([, file]) => existsSync(file));
	for (const [name, file] of present) copyFileSync(file, path.join(folder, name));
	const tails = present.map(([name]) => `--- ${name}, last ${TAIL_LINES} lines ---\n${tail(path.join(folder, name))}`);
	return [`${why}: the logs of every process are kept in ${folder}`, ...tails].join('\n');
}

/** Adds `note` to an error's message, and to its stack, which is what jest prints. */
function withNote(error: unknown, note: string): Error {
	const failure = error instanceof Error ? error : new Error(String(error));
	const original = failure.message;
	failure.message = `${original}\n\n${note}`;
	if (failure.stack) failure.stack = failure.stack.includes(original) ? failure.stack.replace(original, failure.message) : `${failure.stack}\n\n${note}`;
	return failure;
}

/**
 * Makes a real-n8n suite's failures readable afterwards. `logs` names every log file the suite's
 * processes write; it is read when a test fails, so processes started late are included.
 * - `it()` is jest's, with a body that keeps the logs as they are when it throws and names them in
 *   its error; `wrap()` does the same for a beforeAll.
 * - A test that jest abandons at its time limit never throws: `afterAll()`, called before the
 *   folders are removed, keeps the logs then and prints where.
 */
export function failureLogs(suite: string, logs: () => Record<string, string>) {
	let unfinished: string | undefined;
	const wrap = (name: string, body: () => Promise<void>) => async () => {
		unfinished = name;
		try {
			await body();
		} catch (error) {
			throw withNote(error, keepLogs(suite, `"${name}" failed`, logs()));
		} finally {
			if (unfinished === name) unfinished = undefined;
		}
	};
	return {
		wrap,
		it: (name: string, body: () => Promise<void>, timeoutMs?: number) => it(name, wrap(name, body), timeoutMs),
		afterAll() {
			if (unfinished) process.stderr.write(`${keepLogs(suite, `"${unfinished}" did not finish (jest's time limit)`, logs())}\n`);
		},
	};
}
