import { readConcurrency, runBounded } from '../../../../nodes/VideoPlatform/actions/concurrency';
import { createExecuteContext } from '../../../helpers/executeContext';

const credentials = { baseUrl: 'https://video.example.com', apiKey: 'sk_test_key' };

describe('readConcurrency', () => {
	it.each([
		[undefined, 10],
		[{ maxConcurrentRequests: 3 }, 3],
		[{ maxConcurrentRequests: 0 }, 1],
		[{ maxConcurrentRequests: 500 }, 50],
		[{ maxConcurrentRequests: 2.7 }, 2],
		[{ maxConcurrentRequests: 'x' }, 10],
	])('options %p give %p', (options, expected) => {
		const context = createExecuteContext({
			credentials,
			parameters: options === undefined ? {} : { options },
		});
		expect(readConcurrency.call(context)).toBe(expected);
	});
});

describe('runBounded', () => {
	it('never has more than the limit under way, and runs every index once', async () => {
		let active = 0;
		let peak = 0;
		const done: number[] = [];
		await runBounded(
			50,
			4,
			async (index) => {
				active++;
				peak = Math.max(peak, active);
				await new Promise((resolve) => setImmediate(resolve));
				done.push(index);
				active--;
			},
			() => false,
		);
		expect(peak).toBe(4);
		expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
	});

	it('starts nothing new once told to stop, and lets running tasks finish', async () => {
		const started: number[] = [];
		const finished: number[] = [];
		let stop = false;
		await runBounded(
			20,
			3,
			async (index) => {
				started.push(index);
				if (index === 2) stop = true;
				await new Promise((resolve) => setImmediate(resolve));
				finished.push(index);
			},
			() => stop,
		);
		expect(started).toEqual([0, 1, 2]);
		expect(finished.sort()).toEqual([0, 1, 2]);
	});
});
