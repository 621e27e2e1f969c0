import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8nProcess, howCliEnded } from '../../../tools/n8n/process';
import { defaultVersion, versionSpec } from '../../../tools/install/versions';
import { cacheRoot } from '../../../tools/common/paths';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vp-process-test-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** A process whose "n8n" is a script of ours, run by this Node. */
function processRunning(script: string): N8nProcess {
	const version = defaultVersion();
	const owner = { version, capabilities: versionSpec(version).capabilities, sharedEnv: {}, log: () => undefined };
	const p = new N8nProcess({ owner, name: 'n8n', role: 'main', userFolder: path.join(folder, 'user'), port: 1 } as never);
	p.node = process.execPath;
	p.bin = path.join(folder, `${Math.random().toString(36).slice(2)}.js`);
	fs.writeFileSync(p.bin, script);
	return p;
}

describe('N8nProcess.cli says how a command ended', () => {
	it('an exit code', async () => {
		const result = await processRunning('process.exit(3)').cli(['execute'], { allowFailure: true });
		expect(howCliEnded(result)).toBe('exited with code 3');
	});

	it('the time limit, when the command outlives it and is killed', async () => {
		const result = await processRunning('setInterval(() => undefined, 1000)').cli(['execute'], { allowFailure: true, timeoutMs: 200 });
		expect(result).toMatchObject({ status: null, signal: 'SIGKILL', timedOutMs: 200 });
		expect(howCliEnded(result)).toBe('was killed after 0.2 s, the time limit the tools give a CLI command');
	});

	it('a signal from elsewhere', async () => {
		const result = await processRunning("process.kill(process.pid, 'SIGTERM')").cli(['execute'], { allowFailure: true });
		expect(howCliEnded(result)).toBe('was ended by SIGTERM');
	});

	it('and puts it in the error when a failure was not allowed', async () => {
		await expect(processRunning('process.exit(2)').cli(['import:workflow'])).rejects.toThrow('n8n import:workflow exited with code 2');
	});
});

describe('N8nProcess.env', () => {
	it("keeps Node's compile cache in the tools' cache, which a caller's setting overrides", () => {
		const p = processRunning('');
		expect(p.env().NODE_COMPILE_CACHE).toBe(path.join(cacheRoot, 'node-compile-cache'));
		expect(p.env({ NODE_COMPILE_CACHE: '/elsewhere' }).NODE_COMPILE_CACHE).toBe('/elsewhere');
	});

	it("never takes the shell's SQLite file: the database is the user folder's", () => {
		const saved = process.env.DB_SQLITE_DATABASE;
		process.env.DB_SQLITE_DATABASE = '/home/someone/.n8n/database.sqlite';
		try {
			expect(processRunning('').env().DB_SQLITE_DATABASE).toBeUndefined();
		} finally {
			if (saved === undefined) delete process.env.DB_SQLITE_DATABASE;
			else process.env.DB_SQLITE_DATABASE = saved;
		}
	});
});
