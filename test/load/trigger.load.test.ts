import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/filter';
import { WEBHOOK_CREDENTIAL } from '../../nodes/VideoPlatform/shared/credentials';
import { createApiKey, ensureOwner, waitForExecutions } from '../../tools/n8n/api';
import { node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import type { N8n } from '../e2e/n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from '../e2e/n8nWithPackage';

// The load half of test/e2e/trigger.e2e.test.ts, whose burst has 20 deliveries: `npm run bench:load`.
const DELIVERIES = 200;
const CONCURRENCY = 20;
const SECRET = 'whsec_load_3e7a19c0';
const HEADER = 'X-Platform-Secret';
const TRIGGER = 'Video Platform Trigger';

const triggerWorkflow = workflow('wfLoadTrigger', [
	node(
		TRIGGER,
		VIDEO_PLATFORM_TRIGGER,
		{ authentication: 'secretHeader', event: ALL_DELIVERIES, options: { filterField: 'kind', filterValues: 'wanted, also-wanted' } },
		{ webhookId: '2b7d4e91-5c3a-4f08-9e6d-1a2b3c4d5e70', credentials: { [WEBHOOK_CREDENTIAL.type]: { id: 'vpLoadSecret', name: 'vpLoadSecret' } } },
	),
	node('Done', 'n8n-nodes-base.noOp', {}),
]);

type Execution = { id: string; status: string };
const deliveryOf = (execution: Execution) => outputOf(execution, TRIGGER)[0].json as Record<string, unknown>;

describe.each(FULL_VERSIONS)('Video Platform Trigger under load, in a real n8n %s', (version) => {
	let n8n: N8n;
	let url: string;
	let apiKey: string;

	beforeAll(async () => {
		n8n = await n8nWithPackage(version, 'trigger-load');
		await n8n.importCredentials([
			{ id: 'vpLoadSecret', name: 'vpLoadSecret', type: WEBHOOK_CREDENTIAL.type, data: { headerName: HEADER, secret: SECRET } },
		]);
		await n8n.importWorkflow(triggerWorkflow);
		await n8n.activateWorkflow(triggerWorkflow.id);
		await n8n.start();
		url = n8n.triggerUrl(triggerWorkflow);
		await n8n.waitForWebhook(url);
		apiKey = await createApiKey(n8n.baseUrl, await ensureOwner(n8n.baseUrl));
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
	});

	it(`${DELIVERIES} deliveries at concurrency ${CONCURRENCY} give ${DELIVERIES} executions, none lost`, async () => {
		const ids = Array.from({ length: DELIVERIES }, (_, i) => `burst-${i}`);
		const statuses: number[] = [];
		for (let start = 0; start < ids.length; start += CONCURRENCY) {
			const batch = ids.slice(start, start + CONCURRENCY).map(async (id) => {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json', [HEADER]: SECRET },
					body: JSON.stringify({ kind: 'also-wanted', id }),
				});
				return response.status;
			});
			statuses.push(...(await Promise.all(batch)));
		}
		expect(statuses.filter((s) => s === 200)).toHaveLength(DELIVERIES);

		const all = (await waitForExecutions(n8n.baseUrl, apiKey, triggerWorkflow.id, { atLeast: DELIVERIES, timeoutMs: 5 * 60_000 })) as Execution[];
		expect(new Set(all.map((e) => deliveryOf(e).id))).toEqual(new Set(ids));
		expect(all.filter((e) => e.status !== 'success')).toEqual([]);
	}, 10 * 60_000);
});
