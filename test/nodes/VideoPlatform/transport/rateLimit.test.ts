import {
	DEFAULT_RATE_LIMIT_POLICY,
	parseRetryAfter,
	retryDelayMs,
} from '../../../../nodes/VideoPlatform/transport/pacer';

const now = Date.parse('2026-11-22T10:00:00Z');

describe('parseRetryAfter', () => {
	it.each([
		['3', 3000],
		[' 0 ', 0],
		['1.5', 1500],
		[7, 7000],
		[['2'], 2000],
		['Sun, 22 Nov 2026 10:00:05 GMT', 5000],
		['Sun, 22 Nov 2026 09:59:00 GMT', 0],
	])('reads %p as %p ms', (header, expected) => {
		expect(parseRetryAfter(header, now)).toBe(expected);
	});

	it.each([undefined, '', 'soon', '-3', {}])('ignores %p', (header) => {
		expect(parseRetryAfter(header, now)).toBeUndefined();
	});
});

describe('retryDelayMs', () => {
	it('follows the platform when it says how long', () => {
		expect(retryDelayMs('4', 3, DEFAULT_RATE_LIMIT_POLICY, now)).toBe(4000);
	});

	it('backs off by doubling when it does not', () => {
		const policy = { ...DEFAULT_RATE_LIMIT_POLICY, fallbackDelayMs: 500, minDelayMs: 0 };
		expect([0, 1, 2].map((retry) => retryDelayMs(undefined, retry, policy, now))).toEqual([
			500, 1000, 2000,
		]);
	});

	it.each(['0', '0.01', 'Sun, 22 Nov 2026 09:59:00 GMT'])(
		'never retries sooner than 1 s, also when Retry-After is %p (no tight loop)',
		(header) => {
			expect(retryDelayMs(header, 0, DEFAULT_RATE_LIMIT_POLICY, now)).toBe(1000);
		},
	);
});
