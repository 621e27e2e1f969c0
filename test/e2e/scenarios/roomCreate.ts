import { createRoom, credential, itemsFrom, manualTrigger, outputOf, workflow } from '../../../tools/n8n/workflows';
import type { Sandbox } from '../../helpers/sandbox';
import { startSandbox } from '../../helpers/sandbox';
import type { N8n } from '../n8nWithPackage';

// Room → Create workflows run in a real n8n: test/e2e/roomCreate.e2e.test.ts, and its rate limit
// test with 150 items in test/load/roomCreate.load.test.ts.

/** Manual → the rows as items → Room → Create (named `Create {id}`), as workflow `wfRooms{id}`. */
export const roomCreateWorkflow = (id: string, credentialId: string, rows: unknown[], extra: object = {}, options: object = {}) =>
	workflow(`wfRooms${id}`, [manualTrigger(), ...itemsFrom(id, rows), createRoom(`Create ${id}`, credentialId, extra, options)]);

/** Runs an imported roomCreateWorkflow on the started n8n, as the editor's Execute Workflow does. */
export async function executeCreate(n8n: N8n, id: string) {
	const result = await n8n.run(`wfRooms${id}`);
	return { result, output: () => outputOf(result.run, `Create ${id}`) };
}

/** Runs an imported roomCreateWorkflow with `n8n execute`, `env` added to n8n's (n8n stopped: SQLite has one writer). */
export async function executeCreateWithCli(n8n: N8n, id: string, env: Record<string, string>) {
	const result = await n8n.execute(`wfRooms${id}`, { env });
	return { result, output: () => outputOf(result.run, `Create ${id}`) };
}

/** Imports and executes a roomCreateWorkflow. */
export async function runCreate(n8n: N8n, id: string, credentialId: string, rows: unknown[], extra: object = {}, options: object = {}) {
	await n8n.importWorkflow(roomCreateWorkflow(id, credentialId, rows, extra, options));
	return await executeCreate(n8n, id);
}

export type ClassesRun = {
	/** Names the workflow (`wfRooms${id}`), its nodes and its credential (`vp${id}`). */
	id: string;
	count: number;
	maxConcurrentRequests: number;
	apiKey: string;
	/** The test's own sandbox; it lives 5 minutes unless told otherwise. */
	sandboxOptions: Parameters<typeof startSandbox>[0];
};

/** Room → Create for "Class 0".."Class {count-1}" against a sandbox of the test's own. */
export async function createClasses(
	n8n: N8n,
	{ id, count, maxConcurrentRequests, apiKey, sandboxOptions }: ClassesRun,
	check: (run: Awaited<ReturnType<typeof runCreate>> & { own: Sandbox; rows: Array<{ name: string }> }) => void,
) {
	const own = await startSandbox({ apiKey, maxIdleMs: 5 * 60_000, ...sandboxOptions });
	try {
		await n8n.importCredentials([credential(`vp${id}`, own.url, apiKey)]);
		const rows = Array.from({ length: count }, (_, i) => ({ name: `Class ${i}` }));
		check({ ...(await runCreate(n8n, id, `vp${id}`, rows, {}, { maxConcurrentRequests })), own, rows });
	} finally {
		await own.stop();
	}
}

export type RateLimitedClasses = Omit<ClassesRun, 'sandboxOptions'> & {
	/** Requests per second the sandbox takes before it answers 429. */
	rateLimit: number;
	sandboxIdleMs?: number;
	testTimeoutMs?: number;
};

export function itCreatesEveryClassUnderARateLimit(n8n: () => N8n, { rateLimit, sandboxIdleMs, testTimeoutMs, ...run }: RateLimitedClasses) {
	const { count, maxConcurrentRequests } = run;
	it(`sends ${count} items ${maxConcurrentRequests} at a time under a rate limit: all succeed, in input order, none sent twice`, async () => {
		const sandboxOptions = { latencyMs: 20, rateLimit, ...(sandboxIdleMs === undefined ? {} : { maxIdleMs: sandboxIdleMs }) };
		await createClasses(n8n(), { ...run, sandboxOptions }, ({ result, output: outputOfRun, own, rows }) => {
			expect(result).toHaveRunOk();

			const output = outputOfRun();
			expect(output.map((item: { json: { name: string } }) => item.json.name)).toEqual(rows.map((r) => r.name));
			expect(output.map((item: { pairedItem: unknown }) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));

			const { counts } = own.state;
			// The limit was really hit (every request beyond one per room got 429), and every refused
			// request was sent again until it got through.
			const refused = counts.total - rows.length;
			expect(refused).toBeGreaterThan(0);
			expect(own.state.rooms).toHaveLength(rows.length);
			// A body created twice would mean a request that may have been processed was sent again.
			expect(Object.values(counts.createdByBody).every((n) => n === 1)).toBe(true);
			expect(counts.peakUnderWay).toBeGreaterThan(1);
			expect(counts.peakUnderWay).toBeLessThanOrEqual(maxConcurrentRequests);
			// The run explains its slowness in the editor: n8n keeps the node's hints with its run data.
			const requests = refused === 1 ? '1 request' : `${refused} requests`;
			expect(JSON.stringify(result.run)).toContain(`${requests} got HTTP 429 (Too Many Requests), and the node waited `);
		});
	}, testTimeoutMs);
}
