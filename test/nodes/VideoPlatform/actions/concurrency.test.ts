import { concurrencyOption } from '../../../../nodes/VideoPlatform/actions/concurrency';

describe('Max Concurrent Requests', () => {
	it('keeps the name saved workflows hold', () => {
		expect(concurrencyOption).toMatchObject({ displayName: 'Max Concurrent Requests', name: 'maxConcurrentRequests', type: 'number' });
	});

	it('defaults to 10, and takes whole numbers from 1 (one request after another) to 50', () => {
		expect(concurrencyOption.default).toBe(10);
		expect(concurrencyOption.typeOptions).toEqual({ minValue: 1, maxValue: 50, numberPrecision: 0 });
		expect(concurrencyOption.description).toMatch(/1 sends items one after another/);
	});
});
