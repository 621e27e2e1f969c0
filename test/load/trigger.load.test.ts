import { FULL_VERSIONS } from '../e2e/n8nWithPackage';
import { itTakesABurstOfDeliveries, triggerInN8n } from '../e2e/scenarios/triggerDeliveries';

// The load half of test/e2e/trigger.e2e.test.ts, whose burst has 20 deliveries: the same trigger
// (test/e2e/scenarios/triggerDeliveries.ts) gets 200, 20 at a time. `npm run bench:load`.
describe.each(FULL_VERSIONS)('Video Platform Trigger under load, in a real n8n %s', (version) => {
	const trigger = triggerInN8n(version, { userFolder: 'trigger-load', idPrefix: 'Load', webhookId: '2b7d4e91-5c3a-4f08-9e6d-1a2b3c4d5e70', secret: 'whsec_load_3e7a19c0' });

	itTakesABurstOfDeliveries(trigger, { deliveries: 200, concurrency: 20, executionsBefore: 0, executionTimeoutMs: 5 * 60_000, testTimeoutMs: 10 * 60_000 });
});
