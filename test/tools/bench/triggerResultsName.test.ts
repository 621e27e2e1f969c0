import { DEFAULT_KEYS, DEFAULT_TRIGGER_VERSION, triggerResultsName } from '../../../tools/bench/triggerResultsName';

describe("the trigger bench's results file name", () => {
	it('is trigger-results.md for the default run, and -queue in queue mode', () => {
		expect(triggerResultsName({})).toBe('trigger-results.md');
		expect(triggerResultsName({ keysRemembered: DEFAULT_KEYS, triggerVersion: DEFAULT_TRIGGER_VERSION })).toBe('trigger-results.md');
		expect(triggerResultsName({ queue: true })).toBe('trigger-results-queue.md');
	});

	it('names the keys remembered when they are not the default, also with the default sides', () => {
		expect(triggerResultsName({ keysRemembered: 100 })).toBe('trigger-results-100-keys.md');
		expect(triggerResultsName({ queue: true, keysRemembered: 100 })).toBe('trigger-results-queue-100-keys.md');
		expect(triggerResultsName({ sides: ['triggerId', 'triggerDrop'], keysRemembered: 100 })).toBe('trigger-results-triggerId-triggerDrop-100-keys.md');
	});

	it("names the sides picked, another n8n, n8n's settings and the trigger's version 1, in that order", () => {
		expect(
			triggerResultsName({
				queue: true,
				sides: ['webhook', 'trigger'],
				n8nVersion: '1.123.50',
				n8nEnv: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
				triggerVersion: 1,
			}),
		).toBe('trigger-results-queue-webhook-trigger-n8n-1.123.50-expression_engine_lazy_acquire-trigger-v1.md');
		expect(triggerResultsName({ n8nVersion: '1.123.50' })).toBe('trigger-results-n8n-1.123.50.md');
	});
});
