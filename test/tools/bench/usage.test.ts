import { cpuWithin } from '../../../tools/bench/usage';

// [epoch ms, CPU µs]: 1 ms of CPU per 10 ms of wall up to 1,020, then 5 ms per 10 ms.
const samples: Array<[number, number]> = [
	[1000, 0],
	[1010, 1000],
	[1020, 2000],
	[1030, 7000],
];

describe('cpuWithin', () => {
	it('reads between samples linearly', () => {
		expect(cpuWithin(samples, [1005, 1025])).toBeCloseTo(0.5 + 1 + 2.5);
	});

	it('holds the first and last samples outside the sampled span', () => {
		expect(cpuWithin(samples, [900, 1100])).toBe(7);
	});

	it('is zero for an empty window', () => {
		expect(cpuWithin(samples, [1015, 1015])).toBe(0);
	});
});
