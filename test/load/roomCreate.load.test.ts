import { createRoom, credential, itemsFrom, manualTrigger, outputOf, workflow } from '../../tools/n8n/workflows';
import type { N8n } from '../e2e/n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from '../e2e/n8nWithPackage';
import type { Sandbox } from '../helpers/sandbox';
import { startSandbox } from '../helpers/sandbox';

// The load half of test/e2e/roomCreate.e2e.test.ts's rate limit test, which there sends 24 items
// (and test/workflows/roomCreate.test.ts 30, in-process): 150 items. `npm run bench:load`.
const API_KEY = 'sk_load_5d0e8a7c21';
const ITEMS = 150;
const CONCURRENCY = 8;

describe.each(FULL_VERSIONS)('Room → Create under load, in a real n8n %s', (version) => {
	let n8n: N8n;
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ apiKey: API_KEY, latencyMs: 20, rateLimit: 40, maxLifetimeMs: 15 * 60_000 });
		n8n = await n8nWithPackage(version, 'room-load');
		await n8n.importCredentials([credential('vpLoad', sandbox.url, API_KEY)]);
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		await sandbox?.stop();
	});

	it(`sends ${ITEMS} items ${CONCURRENCY} at a time under a rate limit: all succeed, in input order, none sent twice`, async () => {
		const rows = Array.from({ length: ITEMS }, (_, i) => ({ name: `Class ${i}` }));
		await n8n.importWorkflow(
			workflow('wfRoomsLoad', [manualTrigger(), ...itemsFrom('Load', rows), createRoom('Create Load', 'vpLoad', {}, { maxConcurrentRequests: CONCURRENCY })]),
		);
		const result = await n8n.execute('wfRoomsLoad');
		expect(result.ok).toBe(true);

		const output = outputOf(result.run, 'Create Load');
		expect(output.map((item: { json: { name: string } }) => item.json.name)).toEqual(rows.map((r) => r.name));
		expect(output.map((item: { pairedItem: unknown }) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		const { counts } = sandbox.state;
		const refused = counts.total - rows.length;
		expect(refused).toBeGreaterThan(0);
		expect(sandbox.state.rooms).toHaveLength(ITEMS);
		expect(Object.values(counts.createdByBody).every((n) => n === 1)).toBe(true);
		expect(counts.peakUnderWay).toBeGreaterThan(1);
		expect(counts.peakUnderWay).toBeLessThanOrEqual(CONCURRENCY);
		expect(JSON.stringify(result.run)).toContain(`${refused} requests got HTTP 429 (Too Many Requests), and the node waited `);
	}, 10 * 60_000);
});
