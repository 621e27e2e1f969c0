import type { N8n } from '../e2e/n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from '../e2e/n8nWithPackage';
import { itCreatesEveryClassUnderARateLimit } from '../e2e/scenarios/roomCreate';

// The load half of test/e2e/roomCreate.e2e.test.ts's rate limit test, which there sends 24 items
// at a limit of 12 per second (and test/workflows/roomCreate.test.ts 30, in-process): 150 items at
// 40 per second. `npm run bench:load`.
describe.each(FULL_VERSIONS)('Room → Create under load, in a real n8n %s', (version) => {
	let n8n: N8n;

	beforeAll(async () => {
		n8n = await n8nWithPackage(version, 'room-load');
		await n8n.start();
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
	});

	itCreatesEveryClassUnderARateLimit(() => n8n, {
		id: 'Load',
		apiKey: 'sk_load_5d0e8a7c21',
		count: 150,
		maxConcurrentRequests: 8,
		rateLimit: 40,
		sandboxIdleMs: 15 * 60_000,
		testTimeoutMs: 10 * 60_000,
	});
});
