import { indexRanges, partWayReport } from '../../../../nodes/VideoPlatform/actions/partWay';

describe('indexRanges', () => {
	it.each([
		[[], ''],
		[[3], '3'],
		[[0, 1, 2, 3, 4, 6, 8, 9], '0-4, 6, 8-9'],
		[[9, 8, 0], '0, 8-9'],
	])('%p reads %p', (indexes, expected) => {
		expect(indexRanges(indexes)).toBe(expected);
	});
});

describe('partWayReport', () => {
	it('says nothing when nothing had succeeded', () => {
		expect(partWayReport([], 'room')).toBe('');
	});

	it('names one item in the singular', () => {
		expect(partWayReport([3], 'room')).toMatch(
			/^This run stopped at this failure, and 1 item had already got a room in it \(item 3; .*would create that room again\./,
		);
	});

	it('stays true for an operation that creates nothing', () => {
		expect(partWayReport([0, 1], undefined)).toMatch(/2 items had already succeeded in it .*would send them again\./);
	});
});
