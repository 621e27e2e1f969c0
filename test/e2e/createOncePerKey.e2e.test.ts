import { serverAnsweringByName } from '../helpers/scriptedServer';
import type { N8n } from './n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from './n8nWithPackage';
import { createRoom, credential, itemsFrom, manualTrigger, outputOf, workflow } from '../../tools/n8n/workflows';

const API_KEY = 'sk_e2e_once_7c1e';
const json = { 'content-type': 'application/json' };
const KEY = '={{ $json.name }}-{{ $now.toISODate() }}';

/**
 * Room → Create with Options → Create Once Per Key, run again and again as a schedule (or a user
 * after a failure) would, in one started n8n per version: each step saves the same workflow and node
 * again and runs it as the editor's Execute Workflow does; n8n keeps the node's keys in its database
 * between runs.
 */
describe.each(FULL_VERSIONS)('Create Once Per Key in a real n8n %s', (version) => {
	let n8n: N8n;
	let platform: Awaited<ReturnType<typeof serverAnsweringByName>>;
	/** Rooms the platform created, by name; requests it got per name; names sent in the current run. */
	const created = new Map<string, number>();
	const requests = new Map<string, number>();
	const sent: string[] = [];

	beforeAll(async () => {
		platform = await serverAnsweringByName((name) => {
			const count = (requests.get(name) ?? 0) + 1;
			requests.set(name, count);
			sent.push(name);
			// "Refused" is a 4xx once (the user then fixes it on the platform); "Busy" gets a 503 once, after the platform read it.
			if ((name === 'Refused' || name === 'Declined') && count === 1) return [422, json, '{"message":"name not allowed yet"}'];
			if (name === 'Busy' && count === 1) return [503, json, '{"message":"try later"}'];
			created.set(name, (created.get(name) ?? 0) + 1);
			return [201, json, JSON.stringify({ id: `room-${name}-${count}`, name })];
		});
		n8n = await n8nWithPackage(version, 'once');
		await n8n.importCredentials([credential('vpOnce', platform.url, API_KEY)]);
		// Imported once; each run saves it again (as the editor does) and runs it on the started n8n.
		await n8n.importWorkflow(onceWorkflow([], 'create'));
		await n8n.start();
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		await platform?.stop();
	});

	/** The workflow with these items and Mode: always the same id and node, whose keys n8n keeps. */
	function onceWorkflow(names: string[], mode: string, keysToForget?: string, nodeSettings: object = {}) {
		const settings = { key: KEY, mode, scope: 'node', keysRemembered: 1000, ...(keysToForget === undefined ? {} : { keysToForget }) };
		const node = { ...createRoom('Create rooms', 'vpOnce', {}, { maxConcurrentRequests: 1, createOncePerKey: { settings } }), ...nodeSettings };
		return workflow('wfOnce', [manualTrigger(), ...itemsFrom('Once', names.map((name) => ({ name }))), node]);
	}

	/** Saves the workflow again with these items and Mode, as the editor does, and runs it as Execute Workflow does. */
	async function runOnce(names: string[], mode = 'create', keysToForget?: string, nodeSettings: object = {}) {
		sent.length = 0;
		const result = await n8n.run(onceWorkflow(names, mode, keysToForget, nodeSettings));
		return { result, printed: result.stdout + result.stderr, sent: [...sent], output: () => outputOf(result.run, 'Create rooms') };
	}

	it('a run that fails part-way, run again whole and then again: every room once, a 4xx item sent again, the others skipped', async () => {
		const names = ['Math', 'Art', 'Refused', 'Music'];
		const first = await runOnce(names);
		expect(first.result.ok).toBe(false);
		expect(first.sent).toEqual(['Math', 'Art', 'Refused']);
		expect(first.printed).toContain('2 items had already got a room in it (items 0-1; n8n counts items from 0). Run the workflow again: the rooms already created are skipped');

		const second = await runOnce(names);
		expect(second.result).toHaveRunOk();
		expect(second.sent).toEqual(['Refused', 'Music']);
		const output = second.output();
		expect(output.map((item: { json: { reason?: string; name?: string } }) => item.json.reason ?? item.json.name)).toEqual(['created-before', 'created-before', 'Refused', 'Music']);
		expect(output.map((item: { pairedItem: unknown }) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(output[0].json.key).toMatch(/^Math-\d{4}-\d\d-\d\d$/);

		// As a schedule runs it again the same day: nothing is sent.
		const third = await runOnce(names);
		expect(third.result).toHaveRunOk();
		expect(third.sent).toEqual([]);
		expect(Object.fromEntries(created)).toEqual({ Math: 1, Art: 1, Refused: 1, Music: 1 });
	});

	it("forgetting a key from the node lets its room be created again; a 503 item fails the next run, naming its key, and sends nothing until that key is forgotten", async () => {
		const forgot = await runOnce(['Math'], 'forgetKeys');
		expect(forgot.result).toHaveRunOk();
		expect(forgot.sent).toEqual([]);
		expect(forgot.output()[0].json).toMatchObject({ forgotten: true });

		const again = await runOnce(['Math', 'Art', 'Busy']);
		expect(again.result.ok).toBe(false);
		expect(again.sent).toEqual(['Math', 'Busy']);
		expect(created.get('Math')).toBe(2);
		expect(created.get('Art')).toBe(1);

		const after503 = await runOnce(['Art', 'Busy']);
		expect(after503.result.ok).toBe(false);
		expect(after503.sent).toEqual([]);
		expect(after503.printed).toMatch(/The room for key "Busy-\d{4}-\d\d-\d\d" may already exist: an earlier run sent its request and never learned whether the platform created it \[item 1\]/);

		// As the message advises: the key pasted into Keys to Forget, the workflow run whole (as Execute
		// step does); only that key is forgotten, so the next run sends Busy and skips Art.
		const busyKey = /The room for key "(Busy-[^"]+)"/.exec(after503.printed)?.[1] ?? '';
		const forgotBusy = await runOnce(['Art', 'Busy'], 'forgetKeys', `  ${busyKey}  \n`);
		expect(forgotBusy.result).toHaveRunOk();
		expect(forgotBusy.sent).toEqual([]);
		const retried = await runOnce(['Art', 'Busy']);
		expect(retried.result).toHaveRunOk();
		expect(retried.sent).toEqual(['Busy']);
		expect(Object.fromEntries(created)).toMatchObject({ Art: 1, Busy: 1 });
	});

	it("n8n's Retry On Fail re-runs the node with every item: the room created on the first try is skipped, the refused item is sent again", async () => {
		const retrying = await runOnce(['Chemistry', 'Declined'], 'create', undefined, { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 });
		expect(retrying.result).toHaveRunOk();
		expect(retrying.sent).toEqual(['Chemistry', 'Declined', 'Declined']);
		const output = retrying.output();
		expect(output.map((item: { json: { reason?: string; name?: string } }) => item.json.reason ?? item.json.name)).toEqual(['created-before', 'Declined']);
		expect(output.map((item: { pairedItem: unknown }) => item.pairedItem)).toEqual([0, 1].map((item) => ({ item })));
		expect(Object.fromEntries(created)).toMatchObject({ Chemistry: 1, Declined: 1 });
	});
});
