import * as fs from 'node:fs';
import * as path from 'node:path';

import { cache } from '../scratchCache';
import { installLog, npmEnv, runStep, withLock } from '../../../tools/install/steps';
import { isInstalled, MARKER } from '../../../tools/install/n8n';

afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

describe('npmEnv', () => {
	it("drops what the calling npm hands down, keeps where packages come from, and sets exactly what is asked", () => {
		const env = npmEnv(
			{ ignore_scripts: false, nodedir: undefined },
			{
				PATH: '/bin',
				npm_config_ignore_scripts: 'true',
				npm_config_nodedir: '/usr',
				npm_config_loglevel: 'error',
				npm_config_cache: '/home/me/.npm',
				npm_config_registry: 'https://registry.example/',
				npm_lifecycle_event: 'start',
				npm_package_name: 'n8n-nodes-videoplatform',
			},
		);
		expect(env).toEqual({
			PATH: '/bin',
			npm_config_cache: '/home/me/.npm',
			npm_config_registry: 'https://registry.example/',
			npm_config_ignore_scripts: 'false',
			npm_config_audit: 'false',
			npm_config_fund: 'false',
			npm_config_update_notifier: 'false',
		});
	});
});

describe('isInstalled', () => {
	const dir = path.join(cache, 'some-install');
	const marker = (recipe: string) => {
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ recipe }));
	};
	const works = () => undefined;

	it('trusts only a marker of the same recipe whose install still works', () => {
		fs.rmSync(dir, { recursive: true, force: true });
		expect(isInstalled(dir, 'r1', works)).toBe(false);
		marker('r0');
		expect(isInstalled(dir, 'r1', works)).toBe(false);
		marker('r1');
		expect(isInstalled(dir, 'r1', () => 'node: not found')).toBe(false);
		expect(isInstalled(dir, 'r1', works)).toBe(true);
	});
});

describe('runStep', () => {
	let stderr: jest.SpyInstance;
	beforeEach(() => (stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)));
	afterEach(() => stderr.mockRestore());

	it("keeps the command's output in the log, and the terminal gets the label and the time", async () => {
		await runStep('Saying hello', 'node', ['-e', 'console.log("hello from the step")'], { cwd: cache, env: process.env });
		expect(fs.readFileSync(installLog, 'utf8')).toContain('hello from the step');
		const shown = stderr.mock.calls.map(([text]) => String(text)).join('');
		expect(shown).toContain('[install] Saying hello...');
		expect(shown).toMatch(/done in \d+ s/);
		expect(shown).not.toContain('hello from the step');
	});

	it('fails with one sentence that names the step and the log, also when the program is missing', async () => {
		await expect(runStep('Failing', 'node', ['-e', 'process.exit(3)'], { cwd: cache, env: process.env })).rejects.toThrow(
			`Failing failed: "node -e process.exit(3)" ended with exit code 3. Read ${installLog} for the details`,
		);
		await expect(runStep('Missing', 'no-such-program-here', [], { cwd: cache, env: process.env })).rejects.toThrow(
			/^Missing failed: "no-such-program-here" could not be started \(ENOENT\)\. Read .*install\.log for the details$/,
		);
	});
});

describe('withLock', () => {
	const lock = path.join(cache, 'thing.lock');

	it('lets one install run at a time', async () => {
		const order: string[] = [];
		const job = (name: string) =>
			withLock(lock, async () => {
				order.push(`${name} starts`);
				await new Promise((resolve) => setTimeout(resolve, 50));
				order.push(`${name} ends`);
			});
		await Promise.all([job('a'), job('b')]);
		expect(order).toEqual(['a starts', 'a ends', 'b starts', 'b ends']);
		expect(fs.existsSync(lock)).toBe(false);
	});

	it('says what it waits for', async () => {
		const said = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
		try {
			let release = () => {};
			const first = withLock(lock, () => new Promise<void>((done) => (release = done)));
			const second = withLock(lock, async () => 'ran', 'heavy end-to-end file');
			await new Promise((resolve) => setTimeout(resolve, 50));
			release();
			await first;
			await expect(second).resolves.toBe('ran');
			expect(said.mock.calls.map(([text]) => String(text))).toContain(`[install] waiting for another heavy end-to-end file (process ${process.pid}) to finish...\n`);
		} finally {
			said.mockRestore();
		}
	});

	it('takes over a lock left by a process that no longer runs', async () => {
		fs.mkdirSync(lock);
		fs.writeFileSync(path.join(lock, 'pid'), '999999999');
		await expect(withLock(lock, async () => 'ran')).resolves.toBe('ran');
	});
});
