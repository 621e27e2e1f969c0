import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { execute } from '../../../../../nodes/VideoPlatform/actions/webhookDelivery/dropRedelivered.operation';
import { bodySha256Of, deliveryKeyOf } from '../../../../../nodes/VideoPlatform/trigger/deliveryKey';
import type { DeduplicationStore, FilterContextOptions } from '../../../../helpers/deduplicationContext';
import { createDeduplicationStore, createFilterContext } from '../../../../helpers/deduplicationContext';
import { ANGLE_BRACKETS, outsideTextWithMarkup } from '../../../../helpers/outsideText';
import { until } from '../../../../helpers/waits';

/** An item as the Video Platform Trigger puts it out, keyed by its id field. */
const delivery = (payload: IDataObject): INodeExecutionData => {
	const key = deliveryKeyOf(payload, 'id', bodySha256Of(JSON.stringify(payload)));
	return { json: { ...payload, _webhook: { ...key } } };
};
const withKey = (deliveryKey: unknown, marker = ''): INodeExecutionData => ({ json: { marker, _webhook: { deliveryKey } } });

/** One run of the operation over these items; the store is n8n's database, kept between runs. */
async function run(store: DeduplicationStore, items: INodeExecutionData[], options: Partial<FilterContextOptions> = {}) {
	const context = createFilterContext({ store, items, ...options });
	const output = await execute.call(context);
	return { output, hints: context.hints };
}
/** A run that records the items whose Delivery Key was asked of n8n's expression engine (not raw). */
async function runCountingEngine(store: DeduplicationStore, items: INodeExecutionData[], options: Partial<FilterContextOptions> = {}) {
	const engineAsked: number[] = [];
	const context = createFilterContext({ store, items, ...options });
	const ask = context.getNodeParameter.bind(context);
	context.getNodeParameter = ((name: string, i: number, ...rest: unknown[]) => {
		if (name === 'deliveryKey' && rest.length < 2) engineAsked.push(i);
		return (ask as (...args: unknown[]) => unknown)(name, i, ...rest);
	}) as typeof context.getNodeParameter;
	return { output: await execute.call(context), engineAsked };
}
const passedIds = (output: INodeExecutionData[]) => output.map((item) => item.json.id);

describe('Webhook Delivery → Drop Redelivered', () => {
	let store: DeduplicationStore;
	beforeEach(() => {
		store = createDeduplicationStore();
	});

	it('lets a delivery through once and drops it in every later run, as the same item with its pairing', async () => {
		const first = delivery({ id: 'd-1', kind: 'x' });
		const { output } = await run(store, [first]);
		expect(output).toEqual([{ ...first, pairedItem: { item: 0 } }]);
		expect(output[0].json).toBe(first.json);
		expect(first).not.toHaveProperty('pairedItem');

		expect((await run(store, [delivery({ id: 'd-1', kind: 'other bytes' })])).output).toEqual([]);
		expect((await run(store, [delivery({ id: 'd-1' })])).output).toEqual([]);
		expect(passedIds((await run(store, [delivery({ id: 'd-2' })])).output)).toEqual(['d-2']);
	});

	it('asks n8n with each key once, in entries mode with Keys Remembered, then once more whether it kept the new ones', async () => {
		const items = [delivery({ id: 'a' }), delivery({ id: 'b' }), delivery({ id: 'a' }), delivery({ kind: 'no id' })];
		await run(store, items, { parameters: { keysRemembered: 500 } });
		const call = {
			items: [items[0].json._webhook, items[1].json._webhook].map((w) => (w as IDataObject).deliveryKey),
			scope: 'node',
			options: { mode: 'entries', maxEntries: 500 },
		};
		expect(store.calls).toEqual([call]);
		await until(() => store.calls.length === 2);
		expect(store.calls).toEqual([call, call]);
	});

	it('ends its run without waiting for the check that confirms the keys were kept', async () => {
		let confirming: (() => void) | undefined;
		let checks = 0;
		// The confirming check never ends until the test lets it; the run has ended before.
		const { output } = await run(store, [delivery({ id: 'a' })], {
			checkProcessedAndRecord: async (keys) => {
				if (++checks === 2) await new Promise<void>((resolve) => (confirming = resolve));
				return { new: checks === 1 ? keys : [], processed: checks === 1 ? [] : keys };
			},
		});
		expect(passedIds(output)).toEqual(['a']);
		await until(() => confirming !== undefined);
		confirming?.();
	});

	it('asks n8n only once when it lets nothing through', async () => {
		await run(store, [delivery({ id: 'a' })]);
		store.calls.length = 0;
		await run(store, [delivery({ id: 'a' }), delivery({ id: 'a' })]);
		expect(store.calls).toHaveLength(1);
	});

	it('leaves no confirmation waiting when it lets nothing through', async () => {
		await run(store, [delivery({ id: 'a' })]);
		await until(() => store.calls.length === 2);
		const timers = jest.spyOn(globalThis, 'setTimeout');
		try {
			await run(store, [delivery({ id: 'a' })]);
			await new Promise((resolve) => setImmediate(resolve));
			// A confirmation's first step is its pause: a timer, even with no key to confirm.
			expect(timers).not.toHaveBeenCalled();
		} finally {
			timers.mockRestore();
		}
	});

	it('lets a key repeated within one run through once, the first time, in input order', async () => {
		const items = [delivery({ id: 'a', n: 1 }), delivery({ id: 'b' }), delivery({ id: 'a', n: 2 }), delivery({ id: 'c' })];
		const { output } = await run(store, items);
		expect(output.map((item) => [item.json.id, item.json.n, item.pairedItem])).toEqual([
			['a', 1, { item: 0 }],
			['b', undefined, { item: 1 }],
			['c', undefined, { item: 3 }],
		]);
		// The same again, now that n8n has the keys: a repeat in a later run is dropped too.
		const again = await run(store, [delivery({ id: 'b' }), delivery({ id: 'd' }), delivery({ id: 'd' })]);
		expect(again.output.map((item) => [item.json.id, item.pairedItem])).toEqual([['d', { item: 1 }]]);
	});

	it('always lets through an item with an empty key or a none: key, and remembers nothing for it', async () => {
		const noId = delivery({ kind: 'no id' });
		expect((noId.json._webhook as IDataObject).deliveryKey).toMatch(/^none:/);
		const items = [noId, noId, withKey(''), withKey('   '), withKey('none:fixed'), withKey('none:fixed')];
		for (let runs = 0; runs < 2; runs++) {
			const { output } = await run(store, items);
			expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		}
		expect(store.calls).toEqual([]);
		expect(store.kept('node', createFilterContext({ store, items }).getNode())).toEqual([]);
	});

	it('with Keys Remembered 2, forgets the oldest key instead of failing: after 3 keys the first passes again', async () => {
		const parameters = { keysRemembered: 2 };
		for (const id of ['k1', 'k2', 'k3']) {
			expect(passedIds((await run(store, [delivery({ id })], { parameters })).output)).toEqual([id]);
		}
		const node = createFilterContext({ store, items: [] }).getNode();
		expect(store.kept('node', node)).toHaveLength(2);
		expect(passedIds((await run(store, [delivery({ id: 'k3' })], { parameters })).output)).toEqual([]);
		expect(passedIds((await run(store, [delivery({ id: 'k1' })], { parameters })).output)).toEqual(['k1']);
		// k1 came back in, so k2 is now the oldest one gone.
		expect(passedIds((await run(store, [delivery({ id: 'k2' }), delivery({ id: 'k1' })], { parameters })).output)).toEqual(['k2']);
		expect(store.kept('node', node)).toHaveLength(2);
	});

	it('keeps the keys of this node apart from another node, or shares them for the whole workflow', async () => {
		const item = delivery({ id: 'shared' });
		await run(store, [item], { nodeId: 'one' });
		expect((await run(store, [item], { nodeId: 'two' })).output).toHaveLength(1);

		const workflowWide = { parameters: { scope: 'workflow' } };
		await run(store, [delivery({ id: 'w' })], { nodeId: 'one', ...workflowWide });
		expect((await run(store, [delivery({ id: 'w' })], { nodeId: 'two', ...workflowWide })).output).toEqual([]);
		expect(store.calls.at(-1)?.scope).toBe('workflow');
	});

	it.each([
		[undefined, 'empty: the expression found nothing'],
		[null, 'null'],
		[42, 'a number'],
		[{ id: 1 }, 'an object'],
		[['x'], 'a list'],
	])('refuses a Delivery Key of %p, says what to put there, and remembers nothing', async (key, kind) => {
		const items = [delivery({ id: 'fine' }), withKey(key)];
		const error = await run(store, items).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(`The Delivery Key of this item is not text (it is ${kind})`);
		expect((error as NodeOperationError).context.itemIndex).toBe(1);
		expect((error as NodeOperationError).description).toContain('{{ $json._webhook.deliveryKey }}');
		expect(store.calls).toEqual([]);
	});

	it('with the default Delivery Key, reads a text key from the item without n8n\'s expression engine, and gives what the engine gives', async () => {
		const items = [delivery({ id: 'a' }), withKey('  padded  '), withKey('none:x'), withKey(''), delivery({ id: 'a' })];
		const resolved = (i: number) => ((items[i].json._webhook as IDataObject).deliveryKey as string);
		// The same items through the engine (a Delivery Key of the test's own) and past it.
		const viaEngine = await run(createDeduplicationStore(), items, { parameters: { deliveryKey: resolved } });
		const { output, engineAsked } = await runCountingEngine(store, items);
		expect(engineAsked).toEqual([]);
		expect(output).toEqual(viaEngine.output);
		expect(store.calls[0].items).toEqual([resolved(0), 'padded']);
	});

	it("with a custom Delivery Key on items from the trigger, compares the custom key, not the trigger's own", async () => {
		// One event re-sent in other bytes: the trigger keys it by its body, so its own keys differ.
		const sent = (eventId: string, bytes: string): INodeExecutionData => {
			const payload = { eventId, bytes };
			return { json: { ...payload, _webhook: { ...deliveryKeyOf(payload, '', bodySha256Of(JSON.stringify(payload))) } } };
		};
		const items = [sent('evt-1', 'first'), sent('evt-1', 'again'), sent('evt-2', 'first')];
		expect(items[0].json._webhook).not.toEqual(items[1].json._webhook);
		const eventId = (i: number) => items[i].json.eventId as string;
		const { output } = await run(store, items, { parameters: { deliveryKey: eventId } });
		expect(output.map((item) => item.json.bytes)).toEqual(['first', 'first']);
		expect(store.calls[0].items).toEqual(['evt-1', 'evt-2']);
	});

	it('with the default Delivery Key, asks n8n\'s expression engine for an item without a text key', async () => {
		const items = [delivery({ id: 'a' }), withKey(7), { json: { _webhook: 'not an object' } }];
		const { output, engineAsked } = await runCountingEngine(store, items, { continueOnFail: true });
		expect(engineAsked).toEqual([1, 2]);
		expect(output.map((item) => (item.json.error as IDataObject | undefined)?.message)).toEqual([undefined, 'The Delivery Key of this item is not text (it is a number)', 'The Delivery Key of this item is not text (it is empty: the expression found nothing)']);
	});

	it("with Continue On Fail, shows an item's value from a failing Delivery Key expression without markup", async () => {
		await fc.assert(
			fc.asyncProperty(outsideTextWithMarkup, async (text) => {
				// n8n 2.x's expression engine passes such a TypeError on as it is, the item's value in its message.
				const deliveryKey = () => {
					throw new TypeError(`Cannot read properties of undefined (reading '${text}')`);
				};
				const { output } = await run(createDeduplicationStore(), [withKey('a')], { continueOnFail: true, parameters: { deliveryKey } });
				const { message } = output[0].json.error as IDataObject;
				expect(message).toMatch(/^Cannot read properties of undefined .*\[item 0\]$/su);
				expect(ANGLE_BRACKETS.test(JSON.stringify(output))).toBe(false);
			}),
			{ numRuns: 100 },
		);
	});

	it('with Continue On Fail, puts a bad key\'s error in its item and still filters the others', async () => {
		await run(store, [delivery({ id: 'seen' })]);
		const items = [delivery({ id: 'new' }), withKey(7), delivery({ id: 'seen' })];
		const { output } = await run(store, items, { continueOnFail: true });
		expect(output).toEqual([
			{ ...items[0], pairedItem: { item: 0 } },
			{
				json: { error: expect.objectContaining({ message: 'The Delivery Key of this item is not text (it is a number)' }) },
				pairedItem: { item: 1 },
			},
		]);
	});

	it('with Continue On Fail, remembers no key for an item whose key could not be read, the first item included', async () => {
		const items = [withKey(7), delivery({ id: 'new' })];
		const { output } = await run(store, items, { continueOnFail: true });
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const alone = createDeduplicationStore();
		await run(alone, [items[1]]);
		const kept = (of: DeduplicationStore) => of.kept('node', createFilterContext({ store: of, items }).getNode());
		expect(kept(store)).toEqual(kept(alone));
		expect(kept(store)).toHaveLength(1);
	});

	it('says how many items it dropped, in the output pane', async () => {
		await run(store, [delivery({ id: 'a' }), delivery({ id: 'b' })]);
		expect((await run(store, [delivery({ id: 'a' })])).hints).toEqual([
			expect.objectContaining({ location: 'outputPane', message: '1 item was dropped: a delivery with the same key was let through before.' }),
		]);
		expect((await run(store, [delivery({ id: 'a' }), delivery({ id: 'b' })])).hints[0].message).toMatch(/^2 items were dropped/);
		expect((await run(store, [delivery({ id: 'c' })])).hints).toEqual([]);
	});

	// The values Keys Remembered takes: rememberedKeys.test.ts.
	it('refuses Keys Remembered 0 before asking n8n', async () => {
		const attempt = run(store, [delivery({ id: 'a' })], { parameters: { keysRemembered: 0 } });
		await expect(attempt).rejects.toThrow(/^Keys Remembered must be a whole number from 1 to 100000/);
		expect(store.calls).toEqual([]);
	});

	it('uses 10,000 keys and this node when the options were never set', async () => {
		await run(store, [delivery({ id: 'a' })]);
		expect(store.calls[0]).toMatchObject({ scope: 'node', options: { maxEntries: 10_000 } });
	});

	it('refuses a scope n8n does not have', async () => {
		await expect(run(store, [delivery({ id: 'a' })], { parameters: { scope: 'execution' } })).rejects.toThrow(
			'Remember Keys For must be This Node or Whole Workflow, not "execution"',
		);
	});

	it("shows an item's value in Keys Remembered or Remember Keys For, and n8n's database message, without markup", async () => {
		const messageOf = async (options: Partial<FilterContextOptions>) =>
			((await run(store, [delivery({ id: 'a' })], options).catch((e: unknown) => e)) as NodeOperationError).message;
		await fc.assert(
			fc.asyncProperty(outsideTextWithMarkup, async (text) => {
				const shown = [
					await messageOf({ parameters: { keysRemembered: text } }),
					await messageOf({ parameters: { keysRemembered: { title: text } } }),
					await messageOf({ parameters: { scope: text } }),
					await messageOf({ checkProcessedAndRecord: async () => await Promise.reject(new Error(`SQLITE_ERROR near "${text}"`)) }),
				];
				expect(shown.filter((message) => ANGLE_BRACKETS.test(message))).toEqual([]);
				expect(shown.every((message) => message.length > 40)).toBe(true);
			}),
			{ numRuns: 100 },
		);
	});

	describe('when runs check the same list at the same time', () => {
		/** n8n's check as it is: it reads the whole list, waits (for the database), and writes it back, without a lock. */
		function locklessList() {
			let kept: string[] = [];
			const checkProcessedAndRecord: FilterContextOptions['checkProcessedAndRecord'] = async (keys) => {
				const read = [...kept];
				for (let turn = 0; turn < 10; turn++) await Promise.resolve();
				const fresh = keys.map(String).filter((key) => !read.includes(key));
				kept = [...read, ...fresh];
				return { new: fresh, processed: keys.filter((key) => !fresh.includes(String(key))) };
			};
			return { checkProcessedAndRecord, kept: () => kept };
		}
		const runsAtOnce = async (list: ReturnType<typeof locklessList>, runs: Array<[string, Partial<FilterContextOptions>?]>) =>
			(await Promise.all(runs.map(async ([id, options]) => await run(store, [delivery({ id })], { ...options, checkProcessedAndRecord: list.checkProcessedAndRecord })))).flatMap(
				({ output }) => passedIds(output),
			);

		it('remembers every key it let through', async () => {
			const list = locklessList();
			const ids = Array.from({ length: 20 }, (_, i) => `d-${i}`);
			expect(await runsAtOnce(list, ids.map((id) => [id]))).toEqual(ids);
			expect(list.kept()).toEqual(ids.map((id) => (delivery({ id }).json._webhook as IDataObject).deliveryKey));
			expect(await runsAtOnce(list, ids.map((id) => [id]))).toEqual([]);
		});

		it('lets one of two copies of a delivery through', async () => {
			expect(await runsAtOnce(locklessList(), [['same'], ['same']])).toEqual(['same']);
		});

		it('queues the checks of two nodes that remember keys for the whole workflow on one list', async () => {
			const list = locklessList();
			const runs = Array.from({ length: 10 }, (_, i): [string, Partial<FilterContextOptions>] => [
				`d-${i}`,
				{ nodeId: `node-${i % 2}`, parameters: { scope: 'workflow' } },
			]);
			await runsAtOnce(list, runs);
			expect(list.kept()).toHaveLength(10);
		});
	});

	// n8n's check reads the node's whole list and writes it back later, without a lock; a check in
	// another n8n process (another worker in queue mode) that read before this run's write and
	// writes after it writes the list without this run's key. The in-process queue cannot reach it.
	describe('when a check in another n8n process writes the list over', () => {
		/** The operation as another n8n process has it: its own modules, so its own queue of checks. */
		function executeInAnotherProcess(): typeof execute {
			let other: typeof execute | undefined;
			jest.isolateModules(() => {
				other = (jest.requireActual('../../../../../nodes/VideoPlatform/actions/webhookDelivery/dropRedelivered.operation') as { execute: typeof execute }).execute;
			});
			return other as typeof execute;
		}
		const processes = [execute, executeInAnotherProcess()];
		const runIn = async (process: number, on: DeduplicationStore, items: INodeExecutionData[]) =>
			passedIds(await processes[process].call(createFilterContext({ store: on, items })));
		const turns = async (count: number) => {
			for (let turn = 0; turn < count; turn++) await Promise.resolve();
		};

		it("keeps a run's key that the other process's write dropped: its copy is dropped later", async () => {
			const keyOf = (id: string) => String((delivery({ id }).json._webhook as IDataObject).deliveryKey);
			const node = createFilterContext({ store, items: [] }).getNode();
			let holdA = true;
			// A's check reads the list, then B's check reads and writes it, then A's writes (without b).
			const raced: DeduplicationStore = createDeduplicationStore(async (keys) => {
				if (!holdA || !keys.includes(keyOf('a'))) return;
				holdA = false;
				while (raced.kept('node', node).length < 2) await new Promise((resolve) => setImmediate(resolve));
			});
			await runIn(0, raced, [delivery({ id: 'earlier' })]);
			expect(await Promise.all([runIn(0, raced, [delivery({ id: 'a' })]), runIn(1, raced, [delivery({ id: 'b' })])])).toEqual([['a'], ['b']]);
			expect(holdA).toBe(false);
			// A's write dropped b; B's confirmation, after its runs ended, records it again.
			await until(() => raced.kept('node', node).length === 3);

			expect(await runIn(0, raced, [delivery({ id: 'b' })])).toEqual([]);
			expect(await runIn(1, raced, [delivery({ id: 'a' })])).toEqual([]);
		});

		it("records again a key that a write landing after its run's last check dropped, in the same process's next run", async () => {
			const keyOf = (id: string) => String((delivery({ id }).json._webhook as IDataObject).deliveryKey);
			const node = createFilterContext({ store, items: [] }).getNode();
			/** What a late write from another process does: the list without that run's key. */
			const lateWrite = async (id: string) => await store.helpersFor(node).removeProcessed([keyOf(id)], 'node', { mode: 'entries', maxEntries: 10_000 });

			const confirmed = async () => {
				const calls = store.calls.length;
				await until(() => store.calls.length === calls + 1);
			};
			expect(await runIn(0, store, [delivery({ id: 'a' })])).toEqual(['a']);
			await confirmed();
			await lateWrite('a');
			expect(await runIn(0, store, [delivery({ id: 'b' })])).toEqual(['b']);
			await confirmed();
			// Its check asked for a again, before b; its confirmation asks for its own key only.
			expect(store.calls.slice(-2).map((call) => call.items)).toEqual([[keyOf('a'), keyOf('b')], [keyOf('b')]]);
			expect(await runIn(1, store, [delivery({ id: 'a', copy: true })])).toEqual([]);

			// Without a later run in that process, the copy passes: the other process never let it through.
			expect(await runIn(0, store, [delivery({ id: 'c' })])).toEqual(['c']);
			await confirmed();
			await lateWrite('c');
			expect(await runIn(1, store, [delivery({ id: 'c', copy: true })])).toEqual(['c']);
		});

		it('for any deliveries over two processes, with any overlap of their checks, drops every copy afterwards', async () => {
			const node = createFilterContext({ store, items: [] }).getNode();
			const id = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((text) => text.trim() !== '');
			const deliveries = fc.uniqueArray(fc.record({ id, process: fc.integer({ min: 0, max: 1 }), window: fc.nat(40) }), {
				minLength: 2,
				maxLength: 24,
				selector: (d) => d.id,
			});
			await fc.assert(
				fc.asyncProperty(deliveries, async (sent) => {
					// Each check lets others in for a number of microtask turns: shorter than any pause of the node's.
					const windows = new Map(sent.map((d) => [(delivery({ id: d.id }).json._webhook as IDataObject).deliveryKey, d.window]));
					const shared = createDeduplicationStore(async (keys) => await turns(Math.max(...keys.map((key) => windows.get(String(key)) ?? 0))));
					await runIn(0, shared, [delivery({ id: 'earlier' })]);
					const first = await Promise.all(sent.map(async (d) => await runIn(d.process, shared, [delivery({ id: d.id })])));
					expect(first.flat()).toEqual(sent.map((d) => d.id));
					// The confirmations go on after the runs: the copies come once they have repaired the list.
					await until(() => shared.kept('node', node).length === sent.length + 1);
					const copies = await Promise.all(sent.map(async (d) => await runIn(1 - d.process, shared, [delivery({ id: d.id, copy: true })])));
					expect(copies.flat()).toEqual([]);
				}),
				{ numRuns: 10 },
			);
			// Each run pauses at least 100 ms per ask again, for real.
		}, 30_000);
	});

	describe("when n8n's database fails", () => {
		const failing = (message: string) => async () => {
			throw new Error(message);
		};

		it('fails the run, lets nothing through, and says why', async () => {
			const error = await run(store, [delivery({ id: 'a' })], { checkProcessedAndRecord: failing('SQLITE_BUSY') }).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as NodeOperationError).message).toBe('n8n could not compare the delivery keys with those it remembers: SQLITE_BUSY');
			expect((error as NodeOperationError).description).toBe("Nothing was let through. Run the workflow again; if it fails again, check n8n's database connection.");
		});

		it("quotes n8n's message as it is, a delivery key in it included: there is no secret of the node's to hide there", async () => {
			const message = 'duplicate key value violates unique constraint "processed_data_pkey": Key (value)=(id:visitor was here) already exists.';
			const error = (await run(store, [delivery({ id: 'a' })], { checkProcessedAndRecord: failing(message) }).catch((e: unknown) => e)) as NodeOperationError;
			expect(error.message).toBe(`n8n could not compare the delivery keys with those it remembers: ${message}`);
		});

		it('asks once more when the list was being created by another run at the same moment, and compares with it', async () => {
			const node = createFilterContext({ store, items: [] }).getNode();
			// The other run created the list with this very key, as two copies of one delivery would.
			await store.checkProcessedAndRecord(node, ['id:same'], 'node', { mode: 'entries', maxEntries: 10 });
			let attempts = 0;
			const raceThenStore: FilterContextOptions['checkProcessedAndRecord'] = async (keys, scope, options) => {
				if (++attempts === 1) throw new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId, processed_data.context');
				return await store.checkProcessedAndRecord(node, keys, scope, options);
			};
			const items = [withKey('id:same'), withKey('id:other')];
			const { output } = await run(store, items, { checkProcessedAndRecord: raceThenStore });
			// The failed one, the one that compared, and (after the run) the one that confirmed the new key was kept.
			expect(attempts).toBe(2);
			await until(() => attempts === 3);
			expect(output.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
		});

		// Which failures are asked again, and how often: rememberedKeys.test.ts.
		it('points to the scope when another node keeps another kind of list for the workflow', async () => {
			const error = await run(store, [delivery({ id: 'a' })], {
				checkProcessedAndRecord: failing('Deduplication data was originally saved with an incompatible setting'),
			}).catch((e: unknown) => e);
			expect((error as NodeOperationError).description).toMatch(/Set Remember Keys For to This Node/);
		});

		it('with Continue On Fail, turns every compared item into an error and still lets a keyless one through', async () => {
			const items = [delivery({ id: 'a' }), withKey('')];
			const { output } = await run(store, items, { continueOnFail: true, checkProcessedAndRecord: failing('gone') });
			expect(output.map((item) => [Boolean(item.json.error), item.pairedItem])).toEqual([
				[true, { item: 0 }],
				[false, { item: 1 }],
			]);
		});
	});
});
