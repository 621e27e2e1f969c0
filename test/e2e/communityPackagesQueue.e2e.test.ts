// N8N_COMMUNITY_PACKAGES in queue mode, the way an admin runs n8n at scale: every process gets the
// same variables, only `n8n start` (main) reconciles the list, and each process loads packages
// from its own user folder (tools/n8n/n8n.js gives every process one of its own, as separate
// containers have). A worker or webhook processor started later installs the package itself only
// with N8N_REINSTALL_MISSING_PACKAGES=true; running ones get main's installs and updates over
// Redis. One stack, started process by process, to keep the number of n8n starts small.
//
// Real: n8n 2.x (main, two workers, a webhook processor), PostgreSQL, Redis, n8n's installer and
// npm, the packed package, TLS, the sandbox. Stood in: registry.npmjs.org (npmRegistryStandIn).
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/choices';
import { scratchRoot } from '../../tools/common/paths';
import { defaultVersion, versionSpec } from '../../tools/install/versions';
import { waitForExecutions } from '../../tools/n8n/api';
import { N8n } from '../../tools/n8n/n8n';
import type { N8nProcess } from '../../tools/n8n/process';
import { credential, node, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import type { NpmRegistryStandIn } from '../helpers/npmRegistryStandIn';
import { NODE_TYPES, PACKAGE, createRoomThroughWebhook, installedPackages, roomByWebhook, roomWebhookUrl, startStandInWithTwoReleases } from '../helpers/npmRegistryStandIn';
import { failureLogs } from '../helpers/failureLogs';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import { packedTarball } from './packedTarball';
import { TRIGGER } from './scenarios/triggerDeliveries';
import { oneHeavyFileAtATime } from './oneHeavyFileAtATime';

const LIFETIME_MS = 30 * 60_000;
// Up to three n8n starts of 120 s each, a webhook wait and an execution wait.
const TEST_TIMEOUT_MS = 10 * 60_000;
const version = defaultVersion();
// Times, pub/sub messages, npm commands and job events in every process's log: what a failure keeps.
const DEBUG_LOGS = { N8N_LOG_LEVEL: 'debug' };
// A Respond to Webhook node answers a run that works: the worker sends that answer over the job's
// progress messages, which n8n hears from its start, while a Webhook node answering from the last
// node waits on n8n hearing the job's end, which it misses when the job ends quickly (see step 2).
const rooms = roomByWebhook('wfQueueFromEnvRooms', 'vpQueueFromEnv', 'respondNode');
const deliveries = workflow('wfQueueFromEnvTrigger', [
	node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: {} }, { webhookId: '3e8d1b6a-7c42-4f05-a9d3-5b2e8f1c6a94' }),
	node('Done', 'n8n-nodes-base.noOp', {}),
]);

type Execution = { id: string; status: string; data?: { resultData: { error?: { message: string } } } };

/** The package's version in a process's own community nodes folder; undefined when it is not there. */
const versionOnDisk = (p: N8nProcess) => {
	const manifest = path.join(p.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE, 'package.json');
	return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
};
const logOf = (p: N8nProcess) => readFileSync(String(p.logFile), 'utf8');

async function until(what: string, check: () => boolean, timeoutMs = 120_000) {
	const started = Date.now();
	while (!check()) {
		if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

const describeIfManaged = versionSpec(version).capabilities.packagesManagedByEnv ? describe : describe.skip;

// Never beside another heavy file: four n8n processes, PostgreSQL, Redis and package installs.
oneHeavyFileAtATime();

describeIfManaged(`N8N_COMMUNITY_PACKAGES in queue mode on a real n8n ${version}`, () => {
	const folder = path.join(scratchRoot, `e2e-packages-queue-${process.pid}`);
	let npm: NpmRegistryStandIn;
	let sandbox: Sandbox;
	let n8n: N8n;
	let withoutReinstall: N8nProcess;
	let withReinstall: N8nProcess;
	let webhook: N8nProcess;
	const failures = failureLogs('communityPackagesQueue', () => ({ ...n8n?.logFiles(), ...npm?.logFiles() }));

	/** What the admin sets on every process: the package at `packageVersion`, pinned with its checksum. */
	const adminEnv = async (p: N8nProcess, packageVersion: string) => ({
		...npm.env,
		// npm's cache is per machine: each process (container) has its own.
		npm_config_cache: path.join(p.userFolder, 'npm-cache'),
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: JSON.stringify([
			{ name: PACKAGE, version: packageVersion, checksum: (await npm.registry.metadata(PACKAGE)).versions[packageVersion].dist.integrity },
		]),
	});
	const startWith = async (p: N8nProcess, packageVersion: string, extra: Record<string, string> = {}) =>
		p.start({ env: { ...(await adminEnv(p, packageVersion)), ...extra } });
	const executions = async (workflowId: string, atLeast: number) =>
		(await waitForExecutions(n8n.baseUrl, n8n.api.key, workflowId, { atLeast, timeoutMs: 60_000 })) as Execution[];
	const newest = (all: Execution[]) => [...all].sort((a, b) => Number(b.id) - Number(a.id))[0];
	const workerOf = (id: string) => Object.entries(n8n.executionsByWorker()).find(([, ids]) => ids.includes(id))?.[0];

	beforeAll(failures.wrap('setting up the stand-in registry, the sandbox and the stack', async () => {
		npm = await startStandInWithTwoReleases(`${folder}-npm`, LIFETIME_MS, await packedTarball());
		// Idle as long as the file may run: the first request comes after several n8n starts.
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, maxLifetimeMs: LIFETIME_MS, maxIdleMs: LIFETIME_MS });
		n8n = await new N8n({ version, userFolder: folder, queue: { workers: 2, webhookProcessors: 1, env: DEBUG_LOGS }, editor: false }).prepare();
		[withoutReinstall, withReinstall] = n8n.workers;
		[webhook] = n8n.webhooks;
		await n8n.importCredentials([credential('vpQueueFromEnv', sandbox.url, SANDBOX_KEY)]);
		await n8n.importWorkflows([rooms, deliveries]);
	}), LIFETIME_MS);

	afterAll(async () => {
		failures.afterAll();
		await n8n?.dispose();
		await sandbox?.stop();
		await npm?.stop();
	}, 120_000);

	failures.it('main installs the package at start, from the stand-in registry into its own user folder', async () => {
		await startWith(n8n.main, '0.1.0');
		expect(await installedPackages(n8n.baseUrl)).toEqual([{ name: PACKAGE, version: '0.1.0', nodes: NODE_TYPES }]);
		expect(versionOnDisk(n8n.main)).toBe('0.1.0');
		await n8n.publicApi();
		for (const { id } of [rooms, deliveries]) await n8n.activateWorkflow(id);
	}, TEST_TIMEOUT_MS);

	failures.it('started after main, a worker without N8N_REINSTALL_MISSING_PACKAGES only warns, and a Room → Create it runs fails; nothing reaches the platform', async () => {
		// The webhook processor, with N8N_REINSTALL_MISSING_PACKAGES=true, first: its install is
		// announced over Redis, and a worker running then would install the package from that.
		await startWith(webhook, '0.1.0', { N8N_REINSTALL_MISSING_PACKAGES: 'true' });
		await n8n.waitForWebhook(roomWebhookUrl(n8n.webhookUrl));
		// The call is queued before the worker runs. n8n 2.41.1 never answers a failed run's call
		// when the job ended before the webhook processor waited for it (waitUntilJobEndsAreHeard),
		// and this worker fails the job 10 to 50 ms after it is queued: the cold CI run of 2026-11-25
		// hung here, and with the webhook processor's Redis traffic slowed by 20 ms, 5 calls of 5 did.
		const answer = createRoomThroughWebhook(n8n.webhookUrl, 'On a worker without the package');
		answer.catch(() => undefined); // awaited below; a step before it may throw first
		await n8n.waitUntilJobEndsAreHeard();
		await startWith(withoutReinstall, '0.1.0');
		expect(versionOnDisk(withoutReinstall)).toBeUndefined();
		expect(logOf(withoutReinstall)).toContain('n8n detected that some packages are missing');

		const { status, body } = await answer;
		expect([status, JSON.parse(body)]).toEqual([500, { message: 'Error in workflow' }]);
		const run = newest(await executions(rooms.id, 1));
		expect(workerOf(run.id)).toBe(withoutReinstall.name);
		expect(run.status).toBe('error');
		expect(run.data?.resultData.error?.message).toMatch(/Unrecognized node type: n8n-nodes-videoplatform\.videoPlatform/);
		expect(sandbox.state.rooms).toEqual([]);
	}, TEST_TIMEOUT_MS);

	failures.it('with N8N_UNVERIFIED_PACKAGES_ENABLED=false as well, that worker cannot reinstall it: the checksum in the variable is main\'s only', async () => {
		await withoutReinstall.stop();
		await startWith(withoutReinstall, '0.1.0', { N8N_REINSTALL_MISSING_PACKAGES: 'true', N8N_UNVERIFIED_PACKAGES_ENABLED: 'false' });
		expect(logOf(withoutReinstall)).toContain(`Failed to reinstall community package ${PACKAGE}: Installation of unverified community packages is forbidden!`);
		expect(versionOnDisk(withoutReinstall)).toBeUndefined();
		// Only the worker that will have it stays, so the next executions are its.
		await withoutReinstall.stop();
	}, TEST_TIMEOUT_MS);

	failures.it('with N8N_REINSTALL_MISSING_PACKAGES=true, a worker and a webhook processor started after main install it into their empty user folders; Room → Create runs on that worker', async () => {
		expect(versionOnDisk(webhook)).toBe('0.1.0');
		expect(logOf(webhook)).toContain('Packages reinstalled successfully');
		await startWith(withReinstall, '0.1.0', { N8N_REINSTALL_MISSING_PACKAGES: 'true' });
		expect(versionOnDisk(withReinstall)).toBe('0.1.0');
		expect(logOf(withReinstall)).toContain('Packages reinstalled successfully');

		const answer = await createRoomThroughWebhook(n8n.webhookUrl, 'On a worker that reinstalled it');
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.body)).toMatchObject({ name: 'On a worker that reinstalled it' });
		const run = newest(await executions(rooms.id, 2));
		expect([run.status, workerOf(run.id)]).toEqual(['success', withReinstall.name]);
		expect(sandbox.state.rooms.map((room: { name: string }) => room.name)).toEqual(['On a worker that reinstalled it']);
	}, TEST_TIMEOUT_MS);

	failures.it('a delivery to the Video Platform Trigger on the webhook processor starts one execution, on the worker', async () => {
		const [url] = n8n.triggerUrls(deliveries);
		await n8n.waitForWebhook(url);
		const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'room.created', id: 'd-1' }) });
		expect(response.status).toBe(200);
		const all = await executions(deliveries.id, 1);
		expect(all.map((e) => [e.status, workerOf(e.id)])).toEqual([['success', withReinstall.name]]);
	}, TEST_TIMEOUT_MS);

	failures.it('a version bump in the variable updates main at its restart, and the running worker and webhook processor over Redis', async () => {
		await n8n.main.stop();
		await startWith(n8n.main, '0.1.1');
		expect(await installedPackages(n8n.baseUrl)).toEqual([{ name: PACKAGE, version: '0.1.1', nodes: NODE_TYPES }]);
		expect(versionOnDisk(n8n.main)).toBe('0.1.1');
		await until('the worker and the webhook processor have 0.1.1', () => versionOnDisk(withReinstall) === '0.1.1' && versionOnDisk(webhook) === '0.1.1');

		const answer = await createRoomThroughWebhook(n8n.webhookUrl, 'After the bump');
		expect(answer.status).toBe(200);
		const run = newest(await executions(rooms.id, 3));
		expect([run.status, workerOf(run.id)]).toEqual(['success', withReinstall.name]);
		expect(sandbox.state.rooms.map((room: { name: string }) => room.name)).toEqual(['On a worker that reinstalled it', 'After the bump']);
	}, TEST_TIMEOUT_MS);
});
