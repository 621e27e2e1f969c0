import fc from 'fast-check';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	checkTwiceIfListNew,
	keyRemoval,
	keysRememberedField,
	readKeysRemembered,
	readScope,
	storeFailureAdvice,
	timedCheck,
} from '../../../../nodes/VideoPlatform/actions/rememberedKeys';
import { keysToAskAgain, noteLetThrough } from '../../../../nodes/VideoPlatform/actions/keysKept';
import { listOf } from '../../../../nodes/VideoPlatform/actions/oneCheckAtATime';
import { systemClock } from '../../../../nodes/VideoPlatform/transport/stop';
import { testNode } from '../../../helpers/executeContext';
import { anyCodePoint } from '../../../helpers/unicode';
import { until } from '../../../helpers/waits';

/** A node's context with one parameter, and n8n's deduplication helpers recording their calls. */
function contextWith(value?: unknown) {
	const calls: unknown[][] = [];
	const helper =
		(name: string, answer?: unknown) =>
		async (...args: unknown[]) => {
			calls.push([name, ...args]);
			return answer;
		};
	const context = {
		getNode: () => testNode,
		getWorkflow: () => ({ id: 'workflow-1' }),
		getNodeParameter: (_name: string, _item: number, fallback: unknown) => value ?? fallback,
		helpers: {
			checkProcessedAndRecord: helper('check', { new: [1, 'b'], processed: ['a'] }),
			removeProcessed: helper('remove'),
			clearAllProcessedItems: helper('clearAll'),
		},
	} as unknown as IExecuteFunctions;
	return { context, calls };
}

describe('Keys Remembered', () => {
	it('is the field both operations show: its name, default and bounds, in their own words', () => {
		expect(keysRememberedField('How many keys.')).toEqual({
			displayName: 'Keys Remembered',
			name: 'keysRemembered',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100_000, numberPrecision: 0 },
			default: 10_000,
			description: 'How many keys.',
		});
	});

	it.each([[1], [100_000], [10_000]])('takes %p', (value) => {
		expect(readKeysRemembered.call(contextWith(value).context, 'keysRemembered')).toBe(value);
	});

	it('is 10,000 when the option was never set', () => {
		expect(readKeysRemembered.call(contextWith().context, 'keysRemembered')).toBe(10_000);
	});

	it.each([
		[0, '0'],
		[100_001, '100001'],
		[2.5, '2.5'],
		[Number.NaN, 'NaN'],
		['10', '"10"'],
		[true, 'true'],
		[[5], '[5]'],
		[{ n: 5 }, '{"n":5}'],
		[() => 5, '() =\u203A 5'],
	])('refuses %p, saying what it takes and showing the value as typed (%s)', (value, shown) => {
		let thrown: unknown;
		try {
			readKeysRemembered.call(contextWith(value).context, 'keysRemembered');
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeOperationError);
		expect((thrown as NodeOperationError).message).toBe(`Keys Remembered must be a whole number from 1 to 100000, not ${shown}`);
		expect((thrown as NodeOperationError).description).toBe('n8n keeps this many of the newest keys. 10000 (the default) is about 270 KB in its database.');
	});
});

describe('Remember Keys For', () => {
	it.each([['node'], ['workflow']])('takes %p', (scope) => {
		expect(readScope.call(contextWith(scope).context, 'scope')).toBe(scope);
	});

	it("is this node's when the option was never set", () => {
		expect(readScope.call(contextWith().context, 'scope')).toBe('node');
	});

	it('refuses with the node named, as the editor shows the error on it', () => {
		expect(() => readScope.call(contextWith('everywhere').context, 'scope')).toThrow(NodeOperationError);
	});

	it.each([
		['everywhere', '"everywhere"'],
		[7, '7'],
		[() => 'node', "() =\u203A 'node'"],
	])('shows a refused %p as typed (%s)', (scope, shown) => {
		expect(() => readScope.call(contextWith(scope).context, 'scope')).toThrow(`Remember Keys For must be This Node or Whole Workflow, not ${shown}`);
	});

	it('refuses anything else, naming both choices', () => {
		fc.assert(
			fc.property(fc.anything({ stringUnit: anyCodePoint }), (scope) => {
				fc.pre(scope !== 'node' && scope !== 'workflow' && scope != null);
				expect(() => readScope.call(contextWith(scope).context, 'scope')).toThrow(/^Remember Keys For must be This Node or Whole Workflow, not /);
			}),
		);
	});
});

describe("n8n's check of the remembered keys", () => {
	it('asks n8n in entries mode with the bound, and gives the new keys as text with the time it took', async () => {
		const { context, calls } = contextWith();
		// n8n gives back the keys it was given; a number is read as text.
		const result = await timedCheck.call(context, 'workflow', 42)(['a', '1', 'b']);
		expect(calls).toEqual([['check', ['a', '1', 'b'], 'workflow', { mode: 'entries', maxEntries: 42 }]]);
		expect(result.missing).toEqual(['1', 'b']);
	});

	it("times n8n's check alone: from asking it to its answer", async () => {
		jest.useFakeTimers();
		try {
			const { context } = contextWith();
			const answerAfter250ms = async () => await new Promise((resolve) => setTimeout(() => resolve({ new: [], processed: ['a'] }), 250));
			Object.assign(context.helpers, { checkProcessedAndRecord: answerAfter250ms });
			const result = timedCheck.call(context, 'workflow', 42)(['a']);
			await jest.advanceTimersByTimeAsync(250);
			expect((await result).ms).toBe(250);
		} finally {
			jest.useRealTimers();
		}
	});

	it('removes keys and clears the list with the same scope and bound, and asks nothing to remove no key', async () => {
		const { context, calls } = contextWith();
		const removal = keyRemoval.call(context, 'node', 7);
		await removal.remove([]);
		await removal.remove(['k']);
		await removal.clearAll();
		const options = { mode: 'entries', maxEntries: 7 };
		expect(calls).toEqual([
			['remove', ['k'], 'node', options],
			['clearAll', 'node', options],
		]);
	});

	it('has the keys it removes, or all when it clears, no longer asked for again by later checks in this process', async () => {
		const { context } = contextWith();
		const list = listOf(context, 'workflow');
		noteLetThrough(list, ['a', 'b', 'c'], systemClock.now());
		const removal = keyRemoval.call(context, 'workflow', 100);
		await removal.remove(['b']);
		expect(keysToAskAgain(list, [], 100, systemClock.now())).toEqual(['a', 'c']);
		await removal.clearAll();
		expect(keysToAskAgain(list, [], 100, systemClock.now())).toEqual([]);
	});
});

describe("n8n's checks asked for while the list's turn is taken", () => {
	/**
	 * A node's checks, whose first check of n8n (another run's) holds the list's turn until
	 * released, or fails when `failing` says so. n8n calls a key starting with "old" known, any other new.
	 */
	async function turnHeldFirst(failing: (keys: string[]) => boolean = () => false) {
		const { context, calls } = contextWith();
		const asked: Array<{ keys: string[]; maxEntries: number }> = [];
		let release = () => {};
		const answer = (keys: string[]) => {
			if (failing(keys)) throw new Error('Connection terminated');
			return { new: keys.filter((key) => !key.startsWith('old')), processed: keys.filter((key) => key.startsWith('old')) };
		};
		Object.assign(context.helpers, {
			checkProcessedAndRecord: async (keys: string[], _scope: string, options: { maxEntries: number }) => {
				calls.push(['check', keys]);
				return asked.push({ keys, maxEntries: options.maxEntries }) === 1 ? await new Promise((resolve) => (release = () => resolve(answer(keys)))) : answer(keys);
			},
		});
		const checkOf = (maxEntries: number) => timedCheck.call(context, 'node', maxEntries);
		const first = checkOf(42)(['x']);
		await until(() => asked.length === 1);
		/** n8n's calls in order: checks, removals and clears, with their keys. */
		const log = () => calls.map(([name, keys]) => (Array.isArray(keys) ? `${String(name)} ${keys.join(',')}` : String(name)));
		return { context, checkOf, asked, log, release: async () => (release(), await first) };
	}

	it('are made as one check once the turn is free: each key once, in the order asked; each gets the missing keys it asked for first', async () => {
		const { checkOf, asked, release } = await turnHeldFirst();
		const check = checkOf(42);
		const results = Promise.all([check(['a', 'b']), check(['b', 'c', 'old1']), check(['old1', 'd', 'a'])]);
		await release();
		const [first, second, third] = await results;
		expect(asked.map(({ keys }) => keys)).toEqual([['x'], ['a', 'b', 'c', 'old1', 'd']]);
		// b and a were new when the first asked for them: for the others, as after the first's check, n8n had them.
		expect([first.missing, second.missing, third.missing]).toEqual([['a', 'b'], ['c'], ['d']]);
		expect(new Set([first.ms, second.ms, third.ms]).size).toBe(1);
	});

	it('with another Keys Remembered, are made apart, each with its own bound, in the order asked', async () => {
		const { checkOf, asked, release } = await turnHeldFirst();
		const results = Promise.all([checkOf(42)(['a']), checkOf(42)(['b']), checkOf(7)(['c']), checkOf(42)(['d'])]);
		await release();
		await results;
		expect(asked).toEqual([
			{ keys: ['x'], maxEntries: 42 },
			{ keys: ['a', 'b'], maxEntries: 42 },
			{ keys: ['c'], maxEntries: 7 },
			{ keys: ['d'], maxEntries: 42 },
		]);
	});

	it('with another Keys Remembered asked for later, still join the check with their own bound that waits', async () => {
		const { context, calls } = contextWith();
		const held: Array<() => void> = [];
		const asked: Array<{ keys: string[]; maxEntries: number }> = [];
		Object.assign(context.helpers, {
			// Every check of n8n holds the list's turn until released.
			checkProcessedAndRecord: async (keys: string[], _scope: string, options: { maxEntries: number }) => {
				calls.push(['check', keys]);
				asked.push({ keys, maxEntries: options.maxEntries });
				return await new Promise((resolve) => held.push(() => resolve({ new: keys, processed: [] })));
			},
		});
		const checkOf = (maxEntries: number) => timedCheck.call(context, 'node', maxEntries);
		const all = [checkOf(42)(['x'])];
		await until(() => held.length === 1);
		// While x's check holds the turn: a check with bound 42, then one with bound 7, wait.
		all.push(checkOf(42)(['a']), checkOf(7)(['c']));
		held[0]();
		await until(() => held.length === 2);
		// a's check has the turn now; c's still waits, and a later check with its bound joins it.
		all.push(checkOf(7)(['e']));
		held[1]();
		await until(() => held.length === 3);
		held[2]();
		await Promise.all(all);
		expect(asked).toEqual([
			{ keys: ['x'], maxEntries: 42 },
			{ keys: ['a'], maxEntries: 42 },
			{ keys: ['c', 'e'], maxEntries: 7 },
		]);
	});

	it('asked for after a removal or a clear of the list, wait for it: they join no check asked for before', async () => {
		const { context, checkOf, log, release } = await turnHeldFirst();
		const check = checkOf(42);
		const removal = keyRemoval.call(context, 'node', 42);
		const done = Promise.all([check(['k']), removal.remove(['k']), check(['k', 'a']), removal.clearAll(), check(['m'])]);
		await release();
		await done;
		expect(log()).toEqual(['check x', 'check k', 'remove k', 'check k,a', 'clearAll', 'check m']);
	});

	it("are made with the first asker's n8n helpers, another execution's checks of the same list included", async () => {
		const { checkOf, asked, release } = await turnHeldFirst();
		const another = contextWith();
		const results = Promise.all([checkOf(42)(['a']), timedCheck.call(another.context, 'node', 42)(['b'])]);
		await release();
		await results;
		expect(asked.map(({ keys }) => keys)).toEqual([['x'], ['a', 'b']]);
		expect(another.calls).toEqual([]);
	});

	it("all fail with n8n's failure when their check fails, and the next check is made", async () => {
		const { checkOf, asked, release } = await turnHeldFirst((keys) => keys.includes('a'));
		const check = checkOf(42);
		const failed = [check(['a']), check(['b'])].map(async (result) => await result.catch((caught: Error) => caught.message));
		await release();
		expect(await Promise.all(failed)).toEqual(['Connection terminated', 'Connection terminated']);
		expect((await check(['e'])).missing).toEqual(['e']);
		expect(asked.map(({ keys }) => keys)).toEqual([['x'], ['a', 'b'], ['e']]);
	});
});

describe('checkTwiceIfListNew', () => {
	/** A check that fails with these errors in turn, then answers. */
	function failing(...errors: unknown[]) {
		let attempts = 0;
		const check = async () => {
			const error = errors[attempts++];
			if (error !== undefined) throw error;
			return { missing: ['k'], ms: 1 };
		};
		return { check, attempts: () => attempts };
	}

	it.each([
		['SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId, processed_data.context'],
		['duplicate key value violates unique constraint "PK_processed_data"'],
		['unique CONSTRAINT failed'],
	])('asks once more after %p: another process was creating the list', async (message) => {
		const { check, attempts } = failing(new Error(message));
		await expect(checkTwiceIfListNew(check, ['k'])).resolves.toEqual({ missing: ['k'], ms: 1 });
		expect(attempts()).toBe(2);
	});

	it.each([['SQLITE_BUSY: database is locked'], ['Connection terminated']])('does not ask again after %p', async (message) => {
		const { check, attempts } = failing(new Error(message));
		await expect(checkTwiceIfListNew(check, ['k'])).rejects.toThrow(message);
		expect(attempts()).toBe(1);
	});

	it('gives up after a second unique-constraint failure', async () => {
		const { check, attempts } = failing(new Error('duplicate key value'), new Error('duplicate key value, again'));
		await expect(checkTwiceIfListNew(check, ['k'])).rejects.toThrow('duplicate key value, again');
		expect(attempts()).toBe(2);
	});

	it('reads a failure that is not an Error by its text', async () => {
		const { check, attempts } = failing('SQLITE_CONSTRAINT');
		await expect(checkTwiceIfListNew(check, ['k'])).resolves.toEqual({ missing: ['k'], ms: 1 });
		expect(attempts()).toBe(2);
	});
});

describe('storeFailureAdvice', () => {
	it("points to Remember Keys For when n8n's list is of another kind", () => {
		expect(storeFailureAdvice('Deduplication data was originally saved with an INCOMPATIBLE setting', 'otherwise')).toMatch(
			/Remove Duplicates .* Set Remember Keys For to This Node\.$/,
		);
	});

	it("gives the operation's own advice for any other failure", () => {
		expect(storeFailureAdvice('SQLITE_BUSY', 'Run the workflow again.')).toBe('Run the workflow again.');
	});
});

