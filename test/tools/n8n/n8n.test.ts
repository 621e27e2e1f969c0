import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8n } from '../../../tools/n8n/n8n';
import { defaultVersion, installableVersions, versionSpec } from '../../../tools/install/versions';
import { startQueueStack } from '../../../tools/queue/stack';
import { createApiKey } from '../../../tools/n8n/api';
import { startFromMigratedDatabase } from '../../../tools/n8n/migratedDatabase';

// Nothing is installed: prepare() gets an install that is already there.
jest.mock('../../../tools/install/n8n', () => ({
	ensureN8n: jest.fn(async () => undefined),
	nodeFor: jest.fn(async () => process.execPath),
}));

// The migrated database's copy, recorded instead of made.
jest.mock('../../../tools/n8n/migratedDatabase', () => ({ startFromMigratedDatabase: jest.fn(async () => undefined) }));

// Queue mode's services, without PostgreSQL, Redis or a watchdog process.
const service = (name: string, port: number) => ({ name, host: '127.0.0.1', port, pid: 1, dir: '', logFile: '', stop: jest.fn(async () => undefined) });
jest.mock('../../../tools/queue/services', () => ({
	ensureQueueServices: jest.fn(async () => ({})),
	startPostgres: jest.fn(async () => ({ ...service('postgres', 5433), database: 'n8n', user: 'n8n', password: 'pw', query: () => '' })),
	startRedis: jest.fn(async () => service('redis', 6380)),
}));
jest.mock('../../../tools/queue/watchdog', () => ({
	startWatchdog: jest.fn(() => ({ add: jest.fn(), remove: jest.fn(), close: jest.fn() })),
}));

// The public API's key, without an n8n to answer.
jest.mock('../../../tools/n8n/api', () => ({
	...jest.requireActual('../../../tools/n8n/api'),
	ensureOwner: jest.fn(async () => 'n8n-auth=owner'),
	createApiKey: jest.fn(async () => 'api-key'),
}));

type Instance = N8n & { cli: jest.Mock };
const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'vp-instance-test-'));
afterAll(() => fs.rmSync(userFolder, { recursive: true, force: true }));

/** An instance of some installable version whose capabilities are the given ones, and whose CLI is recorded. */
function instance(capabilities: Record<string, unknown>, version = defaultVersion()): Instance {
	const n8n = new N8n({ version, userFolder }) as Instance;
	n8n.capabilities = { ...n8n.capabilities, ...capabilities };
	n8n.cli = jest.fn(async () => ({ status: 0, stdout: '', stderr: '' }));
	return n8n;
}

describe('N8n reads capabilities, not majors', () => {
	it('takes its capabilities from the version list, and the default version when given none', () => {
		for (const version of installableVersions()) {
			expect(new N8n({ version, userFolder }).capabilities).toBe(versionSpec(version).capabilities);
		}
		expect(new N8n({ userFolder }).version).toBe(defaultVersion());
		expect(() => new N8n({ version: '0.1.0', userFolder })).toThrow('n8n "0.1.0" is not in tools/install/versions.js');
	});

	it('activates through the public API once n8n runs, in one process as in queue mode: never with a CLI cold start', async () => {
		for (const n8n of [instance({}), new N8n({ userFolder, queue: {} }) as Instance]) {
			n8n.cli = jest.fn();
			const calls: string[] = [];
			const post = jest.fn(async (route: string) => void calls.push(`POST ${route}`));
			jest.spyOn(n8n, 'publicApi').mockImplementation(async () => ({ post }) as never);
			for (const p of n8n.processes) {
				jest.spyOn(p, 'start').mockImplementation(async () => {
					calls.push(`start ${p.role}`);
					return p;
				});
				jest.spyOn(p, 'running', 'get').mockImplementation(() => calls.includes(`start ${p.role}`));
			}
			await n8n.activateWorkflow('wf1');
			expect(calls).toEqual([]);
			await n8n.start();
			await n8n.activateWorkflow('wf2');
			expect(calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /workflows/wf1/activate', 'POST /workflows/wf2/activate']);
			expect(calls.indexOf('POST /workflows/wf1/activate')).toBeGreaterThan(calls.indexOf(`start ${n8n.main.role}`));
			expect(n8n.pendingActivations).toEqual([]);
			expect(n8n.cli).not.toHaveBeenCalled();
		}
	});

	it('makes one public API key per n8n, asking to stop executions only where the version can (another refuses the scope)', async () => {
		const scopesAskedBy = async (publicApiStop: boolean) => {
			(createApiKey as jest.Mock).mockClear();
			const n8n = instance({ publicApiStop });
			await n8n.publicApi();
			await n8n.publicApi();
			expect(createApiKey).toHaveBeenCalledTimes(1);
			return (createApiKey as jest.Mock).mock.calls[0][2] as string[];
		};
		expect(await scopesAskedBy(true)).toContain('execution:stop');
		expect(await scopesAskedBy(false)).not.toContain('execution:stop');
		expect(await scopesAskedBy(false)).toContain('workflow:activate');
	});

	it('disables modules only where the version has them', () => {
		expect(instance({ modulesToDisable: ['mcp-registry', 'other'] }).env().N8N_DISABLED_MODULES).toBe('mcp-registry,other');
		expect(instance({ modulesToDisable: [] }).env()).not.toHaveProperty('N8N_DISABLED_MODULES');
	});

	it('serves no editor when told (editor: false), and its editor by default', () => {
		expect(new N8n({ userFolder, editor: false }).env()).toMatchObject({ N8N_DISABLE_UI: 'true' });
		expect(new N8n({ userFolder }).env()).not.toHaveProperty('N8N_DISABLE_UI');
	});

	it('gives a task broker its own port, and sets none where there is no broker', async () => {
		const withBroker = await instance({ taskBroker: true }).prepare();
		const env = withBroker.env();
		expect(Number(env.N8N_RUNNERS_BROKER_PORT)).toBeGreaterThan(0);
		expect(env.N8N_RUNNERS_BROKER_PORT).not.toBe(env.N8N_PORT);

		const withoutBroker = await instance({ taskBroker: false }).prepare();
		expect(withoutBroker.env()).not.toHaveProperty('N8N_RUNNERS_BROKER_PORT');
	});
});

describe('N8n.execute', () => {
	const printed = (status: string) => `n8n Task Broker ready\n{\n  "finished": true,\n  "status": "${status}"\n}\n`;
	const executed = async (result: Record<string, unknown>) => {
		const n8n = instance({});
		n8n.cli.mockResolvedValue({ stdout: '', stderr: '', ...result });
		const stderr = jest.spyOn(process.stderr, 'write').mockReturnValue(true);
		try {
			return await n8n.execute('wf');
		} finally {
			stderr.mockRestore();
		}
	};

	it("takes a finished, successful run as n8n's verdict when n8n then dies of SIGSEGV while exiting", async () => {
		expect(await executed({ status: null, signal: 'SIGSEGV', stdout: printed('success') })).toMatchObject({ ok: true, ended: 'was ended by SIGSEGV' });
	});

	it('a failed run, another signal or no run data stays a failure', async () => {
		expect((await executed({ status: null, signal: 'SIGSEGV', stdout: printed('error') })).ok).toBe(false);
		expect((await executed({ status: null, signal: 'SIGKILL', stdout: printed('success') })).ok).toBe(false);
		expect((await executed({ status: null, signal: 'SIGSEGV', stdout: 'Segmentation fault' })).ok).toBe(false);
		expect((await executed({ status: 1, stdout: printed('success') })).ok).toBe(false);
	});
});

describe('N8n.run: a workflow run on the started n8n, as the editor runs it', () => {
	/** A stand-in for n8n's API: the requests it got, and an execution that ends after two polls. */
	async function fakeN8n(error?: { message: string; description: string }) {
		const requests: Array<{ method: string; url: string; body: string }> = [];
		let polls = 0;
		const server = http.createServer((req, res) => {
			let body = '';
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				requests.push({ method: req.method ?? '', url: req.url ?? '', body });
				if (req.method === 'GET' && req.url === '/api/v1/workflows/wfRun') return void res.end(JSON.stringify({ ...wf, updatedAt: 'stored' }));
				if (req.url === '/rest/workflows/wfRun/run') {
					fs.appendFileSync(logFile, 'logged during the run\n');
					return void res.end(JSON.stringify({ data: { executionId: '7' } }));
				}
				if (req.url?.startsWith('/api/v1/executions/7')) {
					polls += 1;
					const ended = polls > 2;
					const data = { resultData: { runData: { Start: [{}] }, ...(error ? { error } : {}) } };
					return void res.end(JSON.stringify({ id: '7', stoppedAt: ended ? '2026-12-01T00:00:00Z' : null, status: ended ? (error ? 'error' : 'success') : 'running', data }));
				}
				res.end('{}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const logFile = path.join(userFolder, 'run.log');
		fs.writeFileSync(logFile, 'logged before the run\n');
		const n8n = new N8n({ userFolder, port: (server.address() as { port: number }).port });
		n8n.main.logFile = logFile;
		Object.defineProperty(n8n.main, 'running', { get: () => true });
		return { n8n, requests, close: () => new Promise((resolve) => server.close(resolve)) };
	}
	const wf = { id: 'wfRun', name: 'wfRun', active: false, settings: {}, nodes: [{ name: 'Start' }], connections: {} };

	it('saves the workflow, starts it from its first node, waits for its end and gives its run, its words and the log written meanwhile', async () => {
		const { n8n, requests, close } = await fakeN8n({ message: 'It failed [item 1]', description: 'Fix the item' });
		try {
			const result = await n8n.run(wf);
			expect(requests.slice(0, 2).map(({ method, url }) => `${method} ${url}`)).toEqual(['PUT /api/v1/workflows/wfRun', 'POST /rest/workflows/wfRun/run']);
			expect(JSON.parse(requests[0].body)).toEqual({ name: 'wfRun', nodes: wf.nodes, connections: {}, settings: {} });
			expect(JSON.parse(requests[1].body)).toEqual({ workflowData: wf, triggerToStartFrom: { name: 'Start' } });
			expect(requests.filter(({ url }) => url.startsWith('/api/v1/executions/7'))).toHaveLength(3);
			expect(result.ok).toBe(false);
			expect(result.run.data.resultData.runData).toEqual({ Start: [{}] });
			expect(result.stderr).toBe('It failed [item 1]\nFix the item\nlogged during the run\n');
			expect(JSON.parse(result.stdout)).toEqual(result.run);
		} finally {
			await close();
		}
	});

	it('runs an imported workflow by its id as stored, without saving it', async () => {
		const { n8n, requests, close } = await fakeN8n();
		try {
			expect((await n8n.run('wfRun')).ok).toBe(true);
			expect(requests.slice(0, 2).map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /api/v1/workflows/wfRun', 'POST /rest/workflows/wfRun/run']);
			expect(JSON.parse(requests[1].body).workflowData).toEqual({ ...wf, updatedAt: 'stored' });
		} finally {
			await close();
		}
	});

	it('refuses before n8n is started, naming what to call', async () => {
		await expect(new N8n({ userFolder }).run(wf)).rejects.toThrow('call start() first');
	});

	it('a run that ended without an error is ok', async () => {
		const { n8n, close } = await fakeN8n();
		try {
			expect(await n8n.run(wf)).toMatchObject({ ok: true, stderr: '\nlogged during the run\n' });
		} finally {
			await close();
		}
	});
});

describe('N8n imports through the API where asked', () => {
	/** A version whose API gives its own ids (1.x). */
	const ONE_X = installableVersions().find((version) => !versionSpec(version).capabilities.apiImportKeepsIds);
	type Request = { method: string; url: string; body: unknown };
	/**
	 * A stand-in for n8n's API: it refuses a credential of type `refused` (400), has credential vpTaken
	 * (409) and workflow wfKept. As 1.x's does, it gives a new one an id of its own: `n8n-` and the one sent.
	 */
	async function fakeN8n(options: { version?: string } = {}) {
		const requests: Request[] = [];
		const server = http.createServer((req, res) => {
			let body = '';
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				const parsed = body ? JSON.parse(body) : undefined;
				requests.push({ method: req.method ?? '', url: req.url ?? '', body: parsed });
				if (req.url === '/api/v1/credentials' && parsed?.type === 'refused') res.statusCode = 400;
				if (req.url === '/api/v1/credentials' && parsed?.id === 'vpTaken') res.statusCode = 409;
				if (req.url === '/rest/workflows' && parsed?.id === 'wfBroken') res.statusCode = 400;
				if (req.method === 'GET' && req.url?.startsWith('/api/v1/workflows/') && !/\/(wfKept|n8n-.*)$/.test(req.url)) res.statusCode = 404;
				const givesIds = options.version && !versionSpec(options.version).capabilities.apiImportKeepsIds;
				let answer = {};
				if (givesIds && req.method === 'POST' && req.url === '/api/v1/credentials') answer = { id: `n8n-${parsed.name}` };
				if (givesIds && req.method === 'POST' && req.url === '/rest/workflows') answer = { data: { id: `n8n-${parsed.id}` } };
				if (req.method === 'GET' && req.url === '/api/v1/workflows/n8n-wfA') answer = { ...wf('n8n-wfA'), name: 'wfA' };
				if (req.url === '/rest/workflows/n8n-wfA/run') answer = { data: { executionId: '7' } };
				if (req.url?.startsWith('/api/v1/executions/7')) answer = { id: '7', stoppedAt: '2026-12-01T00:00:00Z', status: 'success', data: { resultData: { runData: { Start: [{}] } } } };
				if (req.url?.startsWith('/api/v1/executions?')) answer = { data: [] };
				res.end(JSON.stringify(answer));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const n8n = new N8n({ ...options, userFolder, port: (server.address() as { port: number }).port, importThroughApi: true });
		const cli = jest.fn(async (args: string[]) => ({ status: 0, stdout: args.join(' '), stderr: '' }));
		n8n.main.cli = cli as never;
		let running = false;
		jest.spyOn(n8n.main, 'start').mockImplementation(async () => {
			running = true;
			return n8n.main;
		});
		jest.spyOn(n8n.main, 'running', 'get').mockImplementation(() => running);
		const seen = () => requests.map(({ method, url }) => `${method} ${url}`);
		const commands = () => cli.mock.calls.map(([args]) => args[0]);
		return { n8n, requests, seen, commands, close: () => new Promise((resolve) => server.close(resolve)) };
	}
	const credential = (id: string, type = 'videoPlatformApi') => ({ id, name: id, type, data: { baseUrl: 'http://127.0.0.1:1', apiKey: 'k' } });
	const wf = (id: string) => ({ id, name: id, active: false, settings: {}, nodes: [{ name: 'Start' }], connections: {} });

	it('keeps imports made before start() for it, which makes credentials, then workflows, then activates them, ids kept: no CLI cold start', async () => {
		const { n8n, requests, seen, commands, close } = await fakeN8n();
		try {
			await n8n.importCredentials([credential('vpA')]);
			await n8n.importWorkflows([wf('wfA')]);
			await n8n.activateWorkflow('wfA');
			expect(requests).toEqual([]);
			await n8n.start();
			expect(seen()).toEqual(['POST /api/v1/credentials', 'GET /api/v1/workflows/wfA', 'POST /rest/workflows', 'POST /api/v1/workflows/wfA/activate']);
			expect(requests[0].body).toEqual(credential('vpA'));
			expect(requests[2].body).toEqual({ id: 'wfA', name: 'wfA', nodes: wf('wfA').nodes, connections: {}, settings: {} });
			expect(commands()).toEqual([]);
			expect(n8n.pendingImports).toEqual({ credentials: [], workflows: [] });
		} finally {
			await close();
		}
	});

	it('once started, imports at once; replaces a workflow whose id exists, as the CLI does; a credential the API refuses, or whose id exists, goes through the CLI', async () => {
		const { n8n, requests, seen, commands, close } = await fakeN8n();
		try {
			await n8n.start();
			await n8n.importCredentials([credential('vpOk'), credential('vpOAuth', 'refused'), credential('vpTaken')]);
			await n8n.importWorkflow(wf('wfKept'));
			expect(seen()).toEqual(['POST /api/v1/credentials', 'POST /api/v1/credentials', 'POST /api/v1/credentials', 'GET /api/v1/workflows/wfKept', 'PUT /api/v1/workflows/wfKept']);
			expect(requests[4].body).toEqual({ name: 'wfKept', nodes: wf('wfKept').nodes, connections: {}, settings: {} });
			expect(commands()).toEqual(['import:credentials']);
			const input = (n8n.main.cli as jest.Mock).mock.calls[0][0][1].replace('--input=', '');
			expect(JSON.parse(fs.readFileSync(input, 'utf8'))).toEqual([credential('vpOAuth', 'refused'), credential('vpTaken')]);
		} finally {
			await close();
		}
	});

	it("saves a new workflow with what the CLI import keeps of it (pinned data, meta, static data), not n8n's read-only fields", async () => {
		const { n8n, requests, close } = await fakeN8n();
		try {
			await n8n.start();
			const withoutSettings = { id: 'wfNew', name: 'wfNew', active: false, nodes: wf('wfNew').nodes, connections: {} };
			await n8n.importWorkflow({ ...withoutSettings, pinData: { Start: [{ json: { a: 1 } }] }, meta: { templateCredsSetupCompleted: true }, staticData: null, tags: [] } as never);
			expect(requests[1].body).toEqual({ id: 'wfNew', name: 'wfNew', nodes: wf('wfNew').nodes, connections: {}, settings: {}, pinData: { Start: [{ json: { a: 1 } }] }, meta: { templateCredsSetupCompleted: true }, staticData: null });
		} finally {
			await close();
		}
	});

	it('says that n8n started when the imports waiting for start() then fail, and how', async () => {
		const { n8n, close } = await fakeN8n();
		try {
			await n8n.importWorkflow(wf('wfBroken'));
			await expect(n8n.start()).rejects.toThrow(/^n8n started, but adding the credentials and workflows imported before start\(\) failed: POST \/rest\/workflows answered 400/);
		} finally {
			await close();
		}
	});

	it('a CLI command before start() imports the waiting ones through the CLI first, since it may read them', async () => {
		const { n8n, requests, commands, close } = await fakeN8n();
		try {
			await n8n.importCredentials([credential('vpA')]);
			await n8n.importWorkflow(wf('wfA'));
			await n8n.cli(['list:workflow']);
			expect(commands()).toEqual(['import:credentials', 'import:workflow', 'list:workflow']);
			await n8n.start();
			expect(requests).toEqual([]);
		} finally {
			await close();
		}
	});

	it("where the version gives new ids (1.x): sends none, and says n8n's wherever the id goes", async () => {
		const { n8n, requests, seen, commands, close } = await fakeN8n({ version: ONE_X });
		try {
			await n8n.importCredentials([credential('vpA')]);
			const withCredential = { ...wf('wfA'), nodes: [{ name: 'Create', credentials: { videoPlatformApi: { id: 'vpA', name: 'vpA' } } }] };
			await n8n.importWorkflows([withCredential]);
			await n8n.activateWorkflow('wfA');
			await n8n.start();
			expect(seen()).toEqual(['POST /api/v1/credentials', 'GET /api/v1/workflows/wfA', 'POST /rest/workflows', 'POST /api/v1/workflows/n8n-wfA/activate']);
			// As 1.x's editor saves it: its schema refuses a credential without allowedHttpRequestDomains.
			expect(requests[0].body).toEqual({ name: 'vpA', type: 'videoPlatformApi', data: { allowedHttpRequestDomains: 'all', ...credential('vpA').data } });
			expect((requests[2].body as { nodes: unknown }).nodes).toEqual([{ name: 'Create', credentials: { videoPlatformApi: { id: 'n8n-vpA', name: 'vpA' } } }]);
			// 1.x's editor API stores `active` as sent: without it, n8n refuses the workflow.
			expect(requests[2].body).toMatchObject({ active: false });
			expect([n8n.idOf('wfA'), n8n.idOf('vpA'), n8n.idOf('wfOther')]).toEqual(['n8n-wfA', 'n8n-vpA', 'wfOther']);

			// Imported again: replaced under n8n's ids, the credential through the CLI, which keeps them.
			await n8n.importCredentials([credential('vpA')]);
			await n8n.importWorkflow(withCredential);
			expect(seen().slice(4)).toEqual(['GET /api/v1/workflows/n8n-wfA', 'PUT /api/v1/workflows/n8n-wfA']);
			expect((requests[5].body as { nodes: unknown }).nodes).toEqual((requests[2].body as { nodes: unknown }).nodes);
			const input = (n8n.main.cli as jest.Mock).mock.calls[0][0][1].replace('--input=', '');
			expect(JSON.parse(fs.readFileSync(input, 'utf8'))).toEqual([{ ...credential('vpA'), id: 'n8n-vpA' }]);
			await n8n.execute('wfA');
			expect(commands()).toEqual(['import:credentials', 'execute']);
			expect((n8n.main.cli as jest.Mock).mock.calls[1][0][1]).toBe('--id=n8n-wfA');

			// A run, by its id or saved first; the executions read.
			n8n.main.logFile = path.join(userFolder, 'run.log');
			fs.writeFileSync(n8n.main.logFile, '');
			const from = requests.length;
			await n8n.run('wfA');
			await n8n.run(withCredential);
			await (await n8n.publicApi()).executions('wfA');
			await n8n.waitForExecutions('wfA', { atLeast: 0, timeoutMs: 0 });
			const urls = seen().slice(from).filter((call) => !call.startsWith('GET /api/v1/executions/7'));
			expect(urls).toEqual([
				'GET /api/v1/workflows/n8n-wfA',
				'POST /rest/workflows/n8n-wfA/run',
				'PUT /api/v1/workflows/n8n-wfA',
				'POST /rest/workflows/n8n-wfA/run',
				'GET /api/v1/executions?workflowId=n8n-wfA&limit=250&includeData=false',
				'GET /api/v1/executions?workflowId=n8n-wfA&limit=250&includeData=true',
			]);
			const saved = requests.slice(from).filter(({ url }) => url === '/rest/workflows/n8n-wfA/run')[1].body as { workflowData: { id: string; nodes: unknown } };
			expect(saved.workflowData.id).toBe('n8n-wfA');
			expect(saved.workflowData.nodes).toEqual((requests[2].body as { nodes: unknown }).nodes);
		} finally {
			await close();
		}
	});

	it('a credential the CLI imported, imported again once started, is replaced through the CLI, not made a second time', async () => {
		const { n8n, seen, commands, close } = await fakeN8n({ version: ONE_X });
		try {
			await n8n.importCredentials([credential('vpB')]);
			await n8n.cli(['list:workflow']);
			await n8n.start();
			await n8n.importCredentials([credential('vpB')]);
			expect(commands()).toEqual(['import:credentials', 'list:workflow', 'import:credentials']);
			expect(seen()).toEqual([]);
		} finally {
			await close();
		}
	});

	it('imports through the CLI when not asked, or in queue mode', () => {
		expect(new N8n({ userFolder }).apiImports).toBe(false);
		expect(new N8n({ userFolder, queue: {}, importThroughApi: true }).apiImports).toBe(false);
	});

	it('asks its API key for creating credentials only when it imports through the API', async () => {
		(createApiKey as jest.Mock).mockClear();
		await new N8n({ userFolder, importThroughApi: true }).publicApi();
		await new N8n({ userFolder }).publicApi();
		const [withImports, without] = (createApiKey as jest.Mock).mock.calls.map((call) => call[2] as string[]);
		expect(withImports).toContain('credential:create');
		expect(without).not.toContain('credential:create');
	});
});

describe('N8n in queue mode', () => {
	const queueFolder = path.join(userFolder, 'queue');
	const queue = (options = {}) => new N8n({ version: defaultVersion(), userFolder: queueFolder, port: 5999, queue: { workers: 3, webhookProcessors: 2, ...options } });

	it('has a main process, the workers and the webhook processors asked for, each in a folder of its own', () => {
		const n8n = queue();
		expect(n8n.mode).toBe('queue');
		expect(n8n.processes.map((p) => [p.name, p.role])).toEqual([
			['main', 'main'],
			['worker-1', 'worker'],
			['worker-2', 'worker'],
			['worker-3', 'worker'],
			['webhook-1', 'webhook'],
			['webhook-2', 'webhook'],
		]);
		expect(new Set(n8n.processes.map((p) => p.userFolder)).size).toBe(6);
		expect(n8n.port).toBe(5999);
		expect(n8n.workers.every((w) => w.concurrency === 2)).toBe(true);
	});

	it('gives what is left out, or passed on as undefined, its default: two workers at concurrency 2, one webhook processor', () => {
		const n8n = new N8n({ userFolder: queueFolder, queue: { workers: undefined, concurrency: undefined, webhookProcessors: undefined } });
		expect(n8n.processes.map((p) => p.name)).toEqual(['main', 'worker-1', 'worker-2', 'webhook-1']);
		expect(n8n.workers.map((w) => w.concurrency)).toEqual([2, 2]);
	});

	it('sends production webhooks to the first webhook processor, and lets a caller pick another', () => {
		const n8n = queue();
		n8n.webhooks[0].port = 6001;
		n8n.webhooks[1].port = 6002;
		const workflow = { id: 'wf', nodes: [{ type: 'n8n-nodes-videoplatform.videoPlatformTrigger', webhookId: 'hook' }] };
		expect(n8n.webhookUrl).toBe('http://127.0.0.1:6001');
		expect(n8n.triggerUrl(workflow)).toBe('http://127.0.0.1:6001/webhook/hook/webhook');
		expect(n8n.triggerUrls(workflow, n8n.webhooks[1])).toEqual(['http://127.0.0.1:6002/webhook/hook/webhook']);
		expect(new N8n({ userFolder, port: 6003 }).triggerUrl(workflow)).toBe('http://127.0.0.1:6003/webhook/hook/webhook');
	});

	it('adds the shared environment to every process, after its own and before what a call adds', () => {
		const n8n = queue();
		n8n.sharedEnv = { DB_TYPE: 'postgresdb', EXECUTIONS_MODE: 'queue' };
		for (const p of n8n.processes) expect(p.env({ EXTRA: '1' })).toMatchObject({ DB_TYPE: 'postgresdb', EXECUTIONS_MODE: 'queue', EXTRA: '1', N8N_USER_FOLDER: p.userFolder });
		expect(new N8n({ userFolder }).env().DB_TYPE).toBe('sqlite');
	});

});

describe('N8n with a migrated database', () => {
	const copied = startFromMigratedDatabase as jest.Mock;
	beforeEach(() => copied.mockClear());

	it('prepare() gives a single-mode folder one when asked', async () => {
		const n8n = await new N8n({ userFolder, migratedDatabase: true }).prepare();
		expect(copied.mock.calls).toEqual([[n8n.main]]);
		await new N8n({ userFolder }).prepare();
		expect(copied).toHaveBeenCalledTimes(1);
	});

	it('never in queue mode, which keeps its database in PostgreSQL', async () => {
		const n8n = await new N8n({ userFolder: path.join(userFolder, 'queue-migrated'), migratedDatabase: true, queue: {} }).prepare();
		expect(copied).not.toHaveBeenCalled();
		await n8n.stop();
	});
});

describe('N8n in queue mode, prepared (services faked)', () => {
	const queueFolder = path.join(userFolder, 'prepared');

	it('gives every process the database, Redis and the first webhook processor as its webhook URL, and the editor option', async () => {
		const n8n = await new N8n({ userFolder: queueFolder, queue: { webhookProcessors: 2, env: { EXTRA: 'yes' } }, editor: false }).prepare();
		for (const p of n8n.processes) {
			expect(p.env()).toMatchObject({
				N8N_DISABLE_UI: 'true',
				EXECUTIONS_MODE: 'queue',
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_PORT: '5433',
				DB_POSTGRESDB_PASSWORD: 'pw',
				QUEUE_BULL_REDIS_PORT: '6380',
				N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				WEBHOOK_URL: `${n8n.webhooks[0].baseUrl}/`,
				EXTRA: 'yes',
				N8N_PORT: String(p.port),
			});
		}
		expect(new Set(n8n.processes.map((p) => p.port)).size).toBe(n8n.processes.length);
		await n8n.stop();
		expect(n8n.services).toBeUndefined();
	});

	it("names every log: each process's runs in order, then PostgreSQL's and Redis's", async () => {
		const n8n = await new N8n({ userFolder: queueFolder, queue: { workers: 1 } }).prepare();
		n8n.main.logFile = '/logs/main.log';
		n8n.workers[0].pastLogs = ['/logs/worker.1.log'];
		n8n.workers[0].logFile = '/logs/worker.log';
		n8n.services!.postgres.logFile = '/logs/postgres.log';
		n8n.services!.redis.logFile = '/logs/redis.log';
		expect(n8n.logFiles()).toEqual({
			'main.log': '/logs/main.log',
			'worker-1.run1.log': '/logs/worker.1.log',
			'worker-1.run2.log': '/logs/worker.log',
			'postgres.log': '/logs/postgres.log',
			'redis.log': '/logs/redis.log',
		});
		await n8n.stop();
	});

	it("waits until Bull's failed and completed channels both have a subscriber", async () => {
		const n8n = await new N8n({ userFolder: queueFolder, queue: {} }).prepare();
		const answers = ['bull:jobs:failed\n0\nbull:jobs:completed\n0\n', 'bull:jobs:failed\n1\nbull:jobs:completed\n0\n', 'bull:jobs:failed\n1\nbull:jobs:completed\n1\n'];
		const command = jest.fn(() => answers.shift() ?? '');
		Object.assign(n8n.services!.redis, { command });
		await n8n.waitUntilJobEndsAreHeard(5_000);
		expect(command).toHaveBeenCalledTimes(3);
		expect(command).toHaveBeenCalledWith('PUBSUB', 'NUMSUB', 'bull:jobs:failed', 'bull:jobs:completed');

		command.mockReturnValue('bull:jobs:failed\n0\nbull:jobs:completed\n0\n');
		await expect(n8n.waitUntilJobEndsAreHeard(300)).rejects.toThrow('No n8n process listened on bull:jobs:failed and bull:jobs:completed within 0.3 s');
		await n8n.stop();
		await expect(new N8n({ userFolder }).waitUntilJobEndsAreHeard()).rejects.toThrow('for queue mode');
	});
});

describe('startQueueStack', () => {
	afterEach(() => jest.restoreAllMocks());

	it('prepares, installs on every process, imports before the start, and activates after it', async () => {
		const calls: string[] = [];
		const record = (name: string) => async () => void calls.push(name);
		jest.spyOn(N8n.prototype, 'prepare').mockImplementation(async function (this: N8n) {
			calls.push('prepare');
			return this;
		});
		jest.spyOn(N8n.prototype, 'installPackage').mockImplementation(() => void calls.push('installPackage'));
		jest.spyOn(N8n.prototype, 'importCredentials').mockImplementation(record('importCredentials'));
		jest.spyOn(N8n.prototype, 'importWorkflows').mockImplementation(record('importWorkflows'));
		jest.spyOn(N8n.prototype, 'activateWorkflow').mockImplementation(async (id: string) => void calls.push(`activate ${id}`));
		jest.spyOn(N8n.prototype, 'start').mockImplementation(async function (this: N8n) {
			calls.push('start');
			return this;
		});
		const credentials = [{ id: 'c', name: 'c', type: 't', data: {} }];
		const n8n = await startQueueStack({ tarball: 'x.tgz', dir: path.join(userFolder, 'stack'), credentials, workflows: [{ id: 'w' }], activate: ['w'], mainPort: 5998, editor: false });
		expect(calls).toEqual(['prepare', 'installPackage', 'importCredentials', 'importWorkflows', 'activate w', 'start']);
		expect(n8n.mode).toBe('queue');
		expect(n8n.port).toBe(5998);
		expect(n8n.editorEnv).toEqual({ N8N_DISABLE_UI: 'true' });
	});

	it('stops what it started when a step fails', async () => {
		jest.spyOn(N8n.prototype, 'prepare').mockImplementation(async function (this: N8n) {
			return this;
		});
		jest.spyOn(N8n.prototype, 'installPackage').mockImplementation(() => {
			throw new Error('npm install failed');
		});
		const stop = jest.spyOn(N8n.prototype, 'stop').mockImplementation(async () => undefined);
		await expect(startQueueStack({ tarball: 'x.tgz', dir: path.join(userFolder, 'stack') })).rejects.toThrow('npm install failed');
		expect(stop).toHaveBeenCalledTimes(1);
	});
});
