import { defaultVersion } from '../../tools/install/versions';
import { itCreatesEveryRoomOnceOnBothWorkers, itSpreadsDeliveriesOverTheWorkers, queueModeStack } from '../e2e/scenarios/queueMode';

// The load half of test/e2e/queue.e2e.test.ts (which runs the same checks with 4 × 25 rooms and 40
// deliveries): the same stack (test/e2e/scenarios/queueMode.ts). `npm run bench:load`; speed
// itself is `npm run bench:queue`'s.
describe(`n8n ${defaultVersion()} in queue mode under load: main, two workers, two webhook processors`, () => {
	const queue = queueModeStack({
		idPrefix: 'QueueLoad',
		logLabel: 'queue-load',
		scratchDir: 'load-queue',
		triggerWebhookId: '4e9a1c73-2d5b-4f60-8b1e-6c7d8e9f0a81',
		apiKey: 'sk_queue_load_2c84',
		secret: 'whsec_queue_load_91be',
		batches: 4,
		roomsPerBatch: 250,
		sandboxLifetimeS: 1800,
		executionTimeoutMs: 5 * 60_000,
	});

	itCreatesEveryRoomOnceOnBothWorkers(queue);
	itSpreadsDeliveriesOverTheWorkers(queue, { deliveries: 500, concurrency: 20, executionsBefore: 0 });
});
