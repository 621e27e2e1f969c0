import * as path from 'node:path';

import StartFirstSequencer from './sequencer';

const e2e = (name: string) => ({ path: path.join(__dirname, 'e2e', name) });
const FILES = [
	e2e('calendarToChat.e2e.test.ts'),
	e2e('queueDedup.e2e.test.ts'),
	e2e('roomCreate.e2e.test.ts'),
	e2e('start.e2e.test.ts'),
	{ path: path.join(__dirname, 'tools', 'checks', 'jestLanes.test.ts') },
];

describe("npm test's jest lanes (test/sequencer.js)", () => {
	const sequencer = new StartFirstSequencer();
	const lane = (shardIndex: number) =>
		sequencer.shard(FILES, { shardIndex, shardCount: 3 }).map((file: { path: string }) => path.basename(file.path));

	it('puts each file in one lane: the heavy files in 1, the waiting ones in 3, every other in 2', () => {
		expect(lane(1)).toEqual(['queueDedup.e2e.test.ts']);
		expect(lane(2)).toEqual(['roomCreate.e2e.test.ts', 'start.e2e.test.ts', 'jestLanes.test.ts']);
		expect(lane(3)).toEqual(['calendarToChat.e2e.test.ts']);
	});

	it('runs the fast projects first, then start.e2e, then the other end-to-end files', () => {
		expect(sequencer.sort(FILES).map((file: { path: string }) => path.basename(file.path))).toEqual([
			'jestLanes.test.ts',
			'start.e2e.test.ts',
			'calendarToChat.e2e.test.ts',
			'queueDedup.e2e.test.ts',
			'roomCreate.e2e.test.ts',
		]);
	});
});
