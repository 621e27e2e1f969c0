import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { ensureQueueServices, HAND_INSTALL } from '../../../tools/queue/services';

const realFs = jest.requireActual<typeof fs>('node:fs');
// existsSync stays the real one unless a test says otherwise.
jest.mock('node:fs', () => {
	const actual = jest.requireActual('node:fs');
	return { ...actual, existsSync: jest.fn(actual.existsSync) };
});

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};
const until = async (check: () => boolean, timeoutMs = 10_000) => {
	const started = Date.now();
	while (!check() && Date.now() - started < timeoutMs) await new Promise((resolve) => setTimeout(resolve, 100));
	return check();
};

describe('the watchdog of the queue-mode services', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videoplatform-watchdog-test-'));
	afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

	// A parent starts the watchdog and a long-running child, lists the child, and dies without
	// stopping it: the watchdog must stop it by PID.
	const parentScript = (registry: string) => `
		const { spawn } = require('node:child_process');
		const { startWatchdog } = require(${JSON.stringify(path.join(__dirname, '..', '..', '..', 'tools', 'queue', 'watchdog.js'))});
		const registry = startWatchdog(${JSON.stringify(registry)});
		const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
		child.unref();
		registry.add(child.pid, { group: true });
		process.stdout.write(String(child.pid));
		process.exit(0);
	`;

	it('stops what it guards once its parent is gone, and then leaves', async () => {
		const registry = path.join(dir, 'registry');
		const parent = spawn(process.execPath, ['-e', parentScript(registry)], { stdio: ['ignore', 'pipe', 'inherit'] });
		let out = '';
		parent.stdout.on('data', (chunk) => (out += chunk));
		await new Promise((resolve) => parent.once('close', resolve));
		const pid = Number(out);
		expect(pid).toBeGreaterThan(0);
		expect(await until(() => !alive(pid))).toBe(true);
		expect(await until(() => !fs.existsSync(registry), 20_000)).toBe(true);
	}, 30_000);
});

describe('ensureQueueServices without root', () => {
	afterEach(() => {
		jest.mocked(fs.existsSync).mockImplementation(realFs.existsSync);
		jest.restoreAllMocks();
	});

	it('says in one sentence what to install by hand when PostgreSQL or Redis is missing', async () => {
		jest.mocked(fs.existsSync).mockImplementation((file) => !/postgresql|redis-server/.test(String(file)) && realFs.existsSync(file));
		jest.spyOn(process, 'getuid').mockReturnValue(1000);
		await expect(ensureQueueServices()).rejects.toThrow(
			`Queue mode needs PostgreSQL and Redis, and postgresql and redis-server cannot be installed without root: install them with \`${HAND_INSTALL}\`, then run this again.`,
		);
	});
});
