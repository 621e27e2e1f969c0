import type { IExecuteFunctions, INode, Workflow } from 'n8n-workflow';

import { listOf, oneCheckAtATime } from '../../../../nodes/VideoPlatform/actions/oneCheckAtATime';
import { mostHeapGrowth } from '../../../helpers/heap';

/** A check that notes when it starts and ends, and gives way to others (a few turns of the microtask queue) in between. */
function recordingCheck(log: string[], name: string, outcome: 'ok' | 'fail' = 'ok') {
	return async () => {
		log.push(`${name} starts`);
		for (let turn = 0; turn < 10; turn++) await Promise.resolve();
		log.push(`${name} ends`);
		if (outcome === 'fail') throw new Error(`${name} failed`);
		return name;
	};
}

const contextOf = (workflowId: string | undefined, nodeId: string) =>
	({ getWorkflow: () => ({ id: workflowId }) as Workflow, getNode: () => ({ id: nodeId }) as INode }) as unknown as IExecuteFunctions;

describe('one check at a time', () => {
	it('runs the checks of one list one after another, in the order they came', async () => {
		const log: string[] = [];
		const results = await Promise.all(['a', 'b', 'c'].map(async (name) => await oneCheckAtATime('list', recordingCheck(log, name))));
		expect(results).toEqual(['a', 'b', 'c']);
		expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
	});

	it('runs the checks of different lists at the same time', async () => {
		const log: string[] = [];
		await Promise.all([oneCheckAtATime('one', recordingCheck(log, 'a')), oneCheckAtATime('two', recordingCheck(log, 'b'))]);
		expect(log).toEqual(['a starts', 'b starts', 'a ends', 'b ends']);
	});

	it('lets the next check run after one that failed, and fails only the failed one', async () => {
		const log: string[] = [];
		const first = oneCheckAtATime('list', recordingCheck(log, 'a', 'fail'));
		const second = oneCheckAtATime('list', recordingCheck(log, 'b'));
		await expect(first).rejects.toThrow('a failed');
		await expect(second).resolves.toBe('b');
		expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends']);
	});

	it('keeps a list queued while a later check runs: a check that comes then waits for it', async () => {
		const log: string[] = [];
		const first = oneCheckAtATime('list', recordingCheck(log, 'a'));
		const second = oneCheckAtATime('list', recordingCheck(log, 'b'));
		await first;
		const third = oneCheckAtATime('list', recordingCheck(log, 'c'));
		await Promise.all([second, third]);
		expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
	});

	it('lets the next check run after one that threw before it awaited anything', async () => {
		const throwing = async () => {
			throw new Error('at once');
		};
		await expect(Promise.all([oneCheckAtATime('list', throwing), oneCheckAtATime('list', async () => 'next')])).rejects.toThrow('at once');
		await expect(oneCheckAtATime('list', async () => 'after')).resolves.toBe('after');
	});

	it('forgets a list once its checks have ended, whatever they gave', async () => {
		/** Checks on 4,000 long-named lists, a third of them failing, until all have ended. */
		const checksOnNewLists = async (round: number) => {
			const checks = Array.from({ length: 4_000 }, (_, i) =>
				// Flat names of their own: a name joined from a shared part would hold only a few bytes of its own.
				oneCheckAtATime(Buffer.from(`${'list '.repeat(1_000)}${round}:${i}`).toString('latin1'), async () => {
					if (i % 3 === 0) throw new Error('failed');
				}).catch(() => undefined),
			);
			await Promise.all(checks);
		};
		// Kept, a round's lists of 5,000 characters would hold over 20 MB.
		expect(await mostHeapGrowth(checksOnNewLists)).toBeLessThan(5 * 1024 * 1024);
	});

	describe('the list a check reads and writes, as n8n names it', () => {
		it("is the node's own for scope node: another node, or the same node id in another workflow, has its own", () => {
			const list = listOf(contextOf('w1', 'n1'), 'node');
			expect(listOf(contextOf('w1', 'n1'), 'node')).toBe(list);
			expect(listOf(contextOf('w1', 'n2'), 'node')).not.toBe(list);
			expect(listOf(contextOf('w2', 'n1'), 'node')).not.toBe(list);
		});

		it("is the workflow's for scope workflow, whichever node asks, and not any node's own", () => {
			const list = listOf(contextOf('w1', 'n1'), 'workflow');
			expect(listOf(contextOf('w1', 'n2'), 'workflow')).toBe(list);
			expect(listOf(contextOf('w2', 'n1'), 'workflow')).not.toBe(list);
			expect(listOf(contextOf('w1', 'n1'), 'node')).not.toBe(list);
		});

		it('is one list for a workflow not saved yet, which has no id, and not the list of a workflow whose id reads "undefined"', () => {
			const list = listOf(contextOf(undefined, 'n1'), 'workflow');
			expect(listOf(contextOf(undefined, 'n2'), 'workflow')).toBe(list);
			expect(listOf(contextOf('undefined', 'n1'), 'workflow')).not.toBe(list);
			expect(listOf(contextOf('w1', 'n1'), 'workflow')).not.toBe(list);
		});
	});
});
