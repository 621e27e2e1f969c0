import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { FAILURE_LOGS_ROOT, failureLogs, keepLogs } from './failureLogs';

const logsDir = mkdtempSync(path.join(os.tmpdir(), 'vp-failure-logs-'));
const worker = path.join(logsDir, 'n8n-worker.log');
writeFileSync(worker, `${Array.from({ length: 30 }, (_, i) => `worker line ${i + 1}`).join('\n')}\n`);
const logs = { 'worker-1.log': worker, 'never-started.log': path.join(logsDir, 'missing.log') };
const suite = `failureLogs-unit-${process.pid}`;
const keptFolders = () => (existsSync(FAILURE_LOGS_ROOT) ? readdirSync(FAILURE_LOGS_ROOT).filter((name) => name.startsWith(suite)) : []);

afterEach(() => {
	for (const name of keptFolders()) rmSync(path.join(FAILURE_LOGS_ROOT, name), { recursive: true, force: true });
});
afterAll(() => rmSync(logsDir, { recursive: true, force: true }));

describe('keepLogs', () => {
	it('copies the logs that exist into a folder of their own, and names it with the end of each', () => {
		const note = keepLogs(suite, 'step 2 failed', logs);
		const [folder] = keptFolders();
		expect(readdirSync(path.join(FAILURE_LOGS_ROOT, folder))).toEqual(['worker-1.log']);
		expect(readFileSync(path.join(FAILURE_LOGS_ROOT, folder, 'worker-1.log'), 'utf8')).toBe(readFileSync(worker, 'utf8'));
		expect(note.split('\n')[0]).toBe(`step 2 failed: the logs of every process are kept in ${path.join(FAILURE_LOGS_ROOT, folder)}`);
		expect(note).toContain('--- worker-1.log, last 25 lines ---\nworker line 6\n');
		expect(note).not.toContain('worker line 5\n');
		expect(note.endsWith('worker line 30')).toBe(true);
	});
});

describe('failureLogs', () => {
	it("keeps the logs when a test body throws, and names them in the error's message and stack", async () => {
		const failures = failureLogs(suite, () => logs);
		const failure = failures.wrap('step 2', async () => {
			throw new Error('expected 500, got nothing');
		})();
		const error: Error = await failure.then(() => new Error('it passed'), (thrown: Error) => thrown);
		expect(error.message).toMatch(new RegExp(`^expected 500, got nothing\n\n"step 2" failed: the logs of every process are kept in ${FAILURE_LOGS_ROOT}/${suite}-`));
		expect(error.stack).toContain(error.message);
		expect(keptFolders()).toHaveLength(1);
	});

	it('keeps nothing when the test passes', async () => {
		const failures = failureLogs(suite, () => logs);
		await failures.wrap('step 1', async () => undefined)();
		failures.afterAll();
		expect(keptFolders()).toEqual([]);
	});

	it('keeps them in afterAll when a test never finished, and says where on stderr', async () => {
		const failures = failureLogs(suite, () => logs);
		void failures.wrap('step 3', () => new Promise<void>(() => undefined))();
		const stderr = jest.spyOn(process.stderr, 'write').mockReturnValue(true);
		let printed: unknown[][];
		try {
			failures.afterAll();
		} finally {
			printed = stderr.mock.calls;
			stderr.mockRestore();
		}
		expect(printed).toEqual([[expect.stringMatching(/^"step 3" did not finish \(jest's time limit\): the logs of every process are kept in /)]]);
		expect(keptFolders()).toHaveLength(1);
	});
});
