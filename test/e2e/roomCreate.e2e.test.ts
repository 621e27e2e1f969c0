import * as path from 'node:path';

import { N8nInstance } from '../../tools/lib/n8n-instance';
import { scratchRoot } from '../../tools/lib/paths';
import type { Sandbox } from '../helpers/sandbox';
import { startSandbox } from '../helpers/sandbox';
import { packedTarball } from './packedTarball';
import {
	createRoom,
	credential,
	httpRequestWithCredential,
	itemsFrom,
	manualTrigger,
	outputOf,
	workflow,
} from '../../tools/lib/workflows';

const API_KEY = 'sk_e2e_4b1f9d7a33c2';
const WRONG_KEY = 'sk_e2e_wrong_0000';

type SeenRequest = { method: string; path: string; body: string; authorization: string; contentType?: string };

describe.each([2, 1] as const)('Room → Create in a real n8n %i.x', (major) => {
	let n8n: InstanceType<typeof N8nInstance>;
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ apiKey: API_KEY, maxLifetimeMs: 10 * 60_000 });
		n8n = await new N8nInstance({
			major,
			userFolder: path.join(scratchRoot, `e2e-room-${major}-${process.pid}`),
		}).prepare();
		n8n.installPackage(await packedTarball());
		// The credential as a user might paste it: a /v1/ suffix and a "Bearer " prefix, with spaces.
		await n8n.importCredentials([
			credential('vpGood', ` ${sandbox.url}/v1/ `, `  Bearer ${API_KEY} `),
			credential('vpWrongKey', sandbox.url, WRONG_KEY),
		]);
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		await sandbox?.stop();
	});

	beforeEach(() => {
		sandbox.state.requests.length = 0;
	});

	it('creates one room per item, keeps going past a bad item, and reports it inside json', async () => {
		const rows = [{ name: 'Math 7A' }, { name: { not: 'text' } }, { name: 1234, type: 'conference' }];
		await n8n.importWorkflow(
			workflow('wfRoomsMany', [
				manualTrigger(),
				...itemsFrom('Classes', rows),
				createRoom('Create rooms', 'vpGood', { onError: 'continueRegularOutput' }),
			]),
		);
		const result = await n8n.execute('wfRoomsMany');
		expect(result.ok).toBe(true);

		// Requests run concurrently, so the server may see them in any order.
		const seen = [...(sandbox.state.requests as SeenRequest[])].sort((a, b) => a.body.localeCompare(b.body));
		expect(seen.map(({ method, path: p, body, authorization, contentType }) => ({ method, p, body, authorization, contentType }))).toEqual([
			{ method: 'POST', p: '/v1/rooms', body: '{"name":"1234","type":"conference"}', authorization: 'valid Bearer key', contentType: 'application/json' },
			{ method: 'POST', p: '/v1/rooms', body: '{"name":"Math 7A","type":"conference"}', authorization: 'valid Bearer key', contentType: 'application/json' },
		]);

		const output = outputOf(result.run, 'Create rooms');
		expect(output).toHaveLength(3);
		expect(output[0]).toMatchObject({ json: { name: 'Math 7A', type: 'conference' }, pairedItem: { item: 0 } });
		expect(output[1]).toEqual({
			json: {
				error: {
					message: 'The Name field must be text, but it is an object [item 1]',
					description: expect.stringContaining('single value'),
					httpCode: null,
				},
			},
			pairedItem: { item: 1 },
		});
		expect(output[2]).toMatchObject({ json: { name: '1234' }, pairedItem: { item: 2 } });
		expect(result.stdout + result.stderr).not.toContain(API_KEY);
	});

	it('a rejected key gives every item a 401 error with Continue On Fail, and never shows the key', async () => {
		await n8n.importWorkflow(
			workflow('wfRoomsBadKey', [
				manualTrigger(),
				...itemsFrom('Two', [{ name: 'A' }, { name: 'B' }]),
				createRoom('Create with wrong key', 'vpWrongKey', { onError: 'continueRegularOutput' }),
			]),
		);
		const result = await n8n.execute('wfRoomsBadKey');
		expect(result.ok).toBe(true);
		const output = outputOf(result.run, 'Create with wrong key');
		expect(output.map((item: { json: { error: unknown } }) => item.json.error)).toEqual([0, 1].map((i) => ({
			message: `The platform rejected the API key (HTTP 401) [item ${i}]`,
			description: expect.stringContaining('check the API key'),
			httpCode: 401,
		})));
		expect((sandbox.state.requests as SeenRequest[]).map((r) => r.authorization)).toEqual(['wrong', 'wrong']);
		expect(JSON.stringify(result.run) + result.stdout + result.stderr).not.toContain(WRONG_KEY);
	});

	it('without Continue On Fail, the run fails with an error that names the item', async () => {
		await n8n.importWorkflow(
			workflow('wfRoomsStop', [
				manualTrigger(),
				...itemsFrom('Stop', [{ name: 'First' }, { name: ['a', 'list'] }, { name: 'Never sent' }]),
				// One at a time, so that no later item is already under way when item 1 fails.
				createRoom('Create and stop', 'vpGood', {}, { maxConcurrentRequests: 1 }),
			]),
		);
		const result = await n8n.execute('wfRoomsStop');
		expect(result.ok).toBe(false);
		expect(result.stdout + result.stderr).toContain('The Name field must be text, but it is a list [item 1]');
		expect((sandbox.state.requests as SeenRequest[]).map((r) => r.body)).toEqual([
			'{"name":"First","type":"conference"}',
		]);
	});

	it('a redirecting platform: the item is an error that says where it points, and the target gets nothing', async () => {
		const target = await startSandbox({ apiKey: API_KEY, maxLifetimeMs: 5 * 60_000 });
		const redirecting = await startSandbox({
			apiKey: API_KEY,
			maxLifetimeMs: 5 * 60_000,
			fault: 'redirect',
			faultRedirectStatus: 302,
			faultRedirectTo: `${target.url}/v1/rooms`,
		});
		try {
			await n8n.importCredentials([credential('vpRedirecting', redirecting.url, API_KEY)]);
			await n8n.importWorkflow(
				workflow('wfRoomsRedirect', [
					manualTrigger(),
					...itemsFrom('One', [{ name: 'Redirected' }]),
					createRoom('Create at a redirect', 'vpRedirecting', { onError: 'continueRegularOutput' }),
				]),
			);
			const result = await n8n.execute('wfRoomsRedirect');
			expect(result.ok).toBe(true);
			expect(outputOf(result.run, 'Create at a redirect')).toEqual([
				{
					json: {
						error: {
							message: `The Base URL answered with a redirect (HTTP 302) to ${target.url}/v1/rooms, which the node does not follow [item 0]`,
							description: expect.stringContaining(`Use ${target.url} as the Base URL`),
							httpCode: 302,
						},
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(redirecting.state.requests).toHaveLength(1);
			expect(target.state.requests).toEqual([]);
			expect(JSON.stringify(result.run) + result.stdout + result.stderr).not.toContain(API_KEY);
		} finally {
			await redirecting.stop();
			await target.stop();
		}
	});

	it('a Base URL with user:password@ is refused, sends nothing, and never shows the password', async () => {
		const password = 'pa55-in-the-url-e2e';
		await n8n.importCredentials([credential('vpUserInfo', sandbox.url.replace('://', `://alice:${password}@`), API_KEY)]);
		await n8n.importWorkflow(
			workflow('wfRoomsUserInfo', [
				manualTrigger(),
				...itemsFrom('One', [{ name: 'With user info' }]),
				createRoom('Create with user info', 'vpUserInfo', { onError: 'continueRegularOutput' }),
			]),
		);
		const result = await n8n.execute('wfRoomsUserInfo');
		expect(result.ok).toBe(true);
		const [item] = outputOf(result.run, 'Create with user info');
		expect(item.json.error).toEqual({
			message: "The credential's Base URL has a user name or password in it (…@ before the host) [item 0]",
			description: expect.stringContaining('Remove everything between :// and @'),
			httpCode: null,
		});
		expect(sandbox.state.requests).toEqual([]);
		expect(JSON.stringify(result.run) + result.stdout + result.stderr).not.toContain(password);
	});

	it('a run that fails part-way without Continue On Fail names the items that already got a room', async () => {
		const failing = await startSandbox({ apiKey: API_KEY, maxLifetimeMs: 5 * 60_000, fault: 'html', faultMatch: '"Class 3"' });
		try {
			await n8n.importCredentials([credential('vpPartWay', failing.url, API_KEY)]);
			const rows = Array.from({ length: 6 }, (_, i) => ({ name: `Class ${i}` }));
			await n8n.importWorkflow(
				workflow('wfRoomsPartWay', [
					manualTrigger(),
					...itemsFrom('Six', rows),
					createRoom('Create part-way', 'vpPartWay', {}, { maxConcurrentRequests: 1 }),
				]),
			);
			const result = await n8n.execute('wfRoomsPartWay');
			expect(result.ok).toBe(false);
			expect(failing.state.rooms.map((room: { name: string }) => room.name)).toEqual(['Class 0', 'Class 1', 'Class 2']);
			// n8n prints a failed run's error, description included, in its log.
			const printed = result.stdout + result.stderr;
			expect(printed).toContain('[item 3]');
			expect(printed).toContain('3 items had already got a room in it (items 0-2; n8n counts items from 0)');
			expect(printed).toContain('Running the whole workflow again would create those rooms again');
		} finally {
			await failing.stop();
		}
	});

	it('sends many items concurrently under a rate limit: all succeed, in input order, none sent twice', async () => {
		const limited = await startSandbox({ apiKey: API_KEY, latencyMs: 20, rateLimit: 40, maxLifetimeMs: 5 * 60_000 });
		try {
			await n8n.importCredentials([credential('vpLimited', limited.url, API_KEY)]);
			const rows = Array.from({ length: 150 }, (_, i) => ({ name: `Class ${i}` }));
			await n8n.importWorkflow(
				workflow('wfRoomsBulk', [
					manualTrigger(),
					...itemsFrom('Classes', rows),
					createRoom('Create in bulk', 'vpLimited', {}, { maxConcurrentRequests: 8 }),
				]),
			);
			const result = await n8n.execute('wfRoomsBulk');
			expect(result.ok).toBe(true);

			const output = outputOf(result.run, 'Create in bulk');
			expect(output.map((item: { json: { name: string } }) => item.json.name)).toEqual(rows.map((r) => r.name));
			expect(output.map((item: { pairedItem: unknown }) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));

			const { counts, requests } = limited.state;
			// The limit was really hit, and every refused request was sent again until it got through.
			expect(requests.some((r: { status: number }) => r.status === 429)).toBe(true);
			expect(limited.state.rooms).toHaveLength(150);
			// A body created twice would mean a request that may have been processed was sent again.
			expect(Object.values(counts.createdByBody).every((n) => n === 1)).toBe(true);
			expect(counts.peakUnderWay).toBeGreaterThan(1);
			expect(counts.peakUnderWay).toBeLessThanOrEqual(8);
		} finally {
			await limited.stop();
		}
	});

	it('the HTTP Request node can use the credential as a predefined credential type', async () => {
		await n8n.importWorkflow(
			workflow('wfHttpCred', [
				manualTrigger(),
				httpRequestWithCredential('HTTP Request', 'vpGood', {
					method: 'GET',
					url: `${sandbox.url}/v1/some/other/path`,
					options: { response: { response: { neverError: true } } },
				}),
			]),
		);
		const result = await n8n.execute('wfHttpCred');
		expect(result.ok).toBe(true);
		expect(sandbox.state.requests).toEqual([
			expect.objectContaining({ method: 'GET', path: '/v1/some/other/path', authorization: 'valid Bearer key' }),
		]);
	});
});
