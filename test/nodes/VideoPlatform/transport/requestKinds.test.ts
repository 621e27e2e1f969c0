import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../../../nodes/VideoPlatform/actions/resources';
import type { PlatformClientFactory, PlatformRequester } from '../../../../nodes/VideoPlatform/transport';
import { PlatformClient } from '../../../../nodes/VideoPlatform/transport';
import { PacerRegistry } from '../../../../nodes/VideoPlatform/transport/pacer';
import { errorToJson } from '../../../../nodes/VideoPlatform/shared/itemError';
import { createExecuteContext } from '../../../helpers/executeContext';
import { fakeClock } from '../../../helpers/sandbox';
import { testClients } from '../../../helpers/platformClient';
import type { ScriptedAnswer } from '../../../helpers/scriptedServer';
import { scriptedServer } from '../../../helpers/scriptedServer';

/**
 * A Room → Get that exists only here: the platform has published no such endpoint. It shows what
 * an operation that reads gets from the transport without any code of its own: path encoding and
 * its own 404. It is not sent again after a server error or a lost answer (see outcome.ts).
 */
const roomGet: ItemOperation = {
	kind: 'item',
	option: { name: 'Test', description: 'A test operation', action: 'Test' },
	properties: [],
	async execute(this: IExecuteFunctions, itemIndex: number, platform: PlatformRequester): Promise<IDataObject> {
		const id = this.getNodeParameter('roomId', itemIndex) as string;
		const response = await platform.request({
			method: 'GET',
			path: ['rooms', id],
			notFound: { message: `No room has the ID ${id}`, description: 'Check the room ID.' },
		});
		return response.body as IDataObject;
	},
};

let server: Awaited<ReturnType<typeof scriptedServer>>;
afterEach(async () => await server?.stop());

const API_KEY = 'sk/request+kinds=';

/** Each item's operation through one run's client, one after another, failures as Continue On Fail keeps them. */
async function run(operation: ItemOperation, ids: unknown[], clients: PlatformClientFactory = testClients()) {
	const context = createExecuteContext({
		credentials: { baseUrl: server.url, apiKey: API_KEY },
		items: ids.map(() => ({ json: {} })),
		parameters: { roomId: (i: number) => ids[i], name: 'Biology', type: 'conference' },
	});
	const platform = clients(context, operation.creates);
	const json: IDataObject[] = [];
	for (let i = 0; i < ids.length; i++) {
		json.push(
			await operation.execute.call(context, i, platform.forItem(i)).catch((error: NodeApiError | NodeOperationError) => {
				if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) throw error;
				return errorToJson(error);
			}),
		);
	}
	return json;
}

const errorOf = (json: IDataObject) => json.error as { message: string; description: string; httpCode: number | null };

describe('the transport, for an operation that reads (GET)', () => {
	it('encodes each path segment, so an ID cannot reach another path', async () => {
		server = await scriptedServer([]);
		await run(roomGet, ['a/b?c#d', 'café 1', '%2F..']);
		expect(server.paths).toEqual(['/v1/rooms/a%2Fb%3Fc%23d', '/v1/rooms/caf%C3%A9%201', '/v1/rooms/%252F..']);
	});

	it('refuses an ID that names nothing, is not text, is too long or has a broken character, and sends nothing for it', async () => {
		server = await scriptedServer([]);
		const json = await run(roomGet, ['', '..', { id: 1 }, null, Number.NaN, 'x'.repeat(1025), 'cut \uD83D']);
		expect(json.map((item) => errorOf(item).message)).toEqual([
			'A value in the request\'s path is empty, "." or ".." [item 0]',
			'A value in the request\'s path is empty, "." or ".." [item 1]',
			"A value in the request's path is not text or a number [item 2]",
			"A value in the request's path is not text or a number [item 3]",
			"A value in the request's path is not text or a number [item 4]",
			"A value in the request's path is longer than 1024 characters [item 5]",
			"A value in the request's path has a broken character [item 6]",
		]);
		expect(server.paths).toEqual([]);
	});

	it('never shows the key when an item pasted it into the path, in the URL or in the operation\'s own 404', async () => {
		const pathOnly: ItemOperation = {
			kind: 'item',
			option: { name: 'Test', description: 'A test operation', action: 'Test' },
			properties: [],
			async execute(this: IExecuteFunctions, itemIndex: number, platform: PlatformRequester) {
				const id = this.getNodeParameter('roomId', itemIndex) as string;
				return (await platform.request({ method: 'GET', path: ['rooms', id] })).body as IDataObject;
			},
		};
		server = await scriptedServer([404, 404]);
		const json = [...(await run(pathOnly, [`Bearer ${API_KEY}`])), ...(await run(roomGet, [`Bearer ${API_KEY}`]))];
		expect(errorOf(json[0]).message).toMatch(/^Nothing was found at .*\/v1\/rooms\/.*\(HTTP 404\)/);
		expect(JSON.stringify(json)).not.toMatch(/request\+kinds|request%2Bkinds/i);
	});

	it("says what the operation says a 404 means, not that the Base URL is wrong", async () => {
		server = await scriptedServer([404]);
		const [json] = await run(roomGet, ['gone']);
		expect(errorOf(json)).toMatchObject({ message: 'No room has the ID gone [item 0]', httpCode: 404 });
		// A wrong Base URL answers 404 to every ID, so the advice names it too.
		expect(errorOf(json).description).toMatch(/^Check the room ID\. If this happens whatever the value, check the credential's Base URL/);
	});

	it.each<[string, ScriptedAnswer]>([
		['HTTP 422', 422],
		['HTTP 501', 501],
		['HTTP 503', 503],
		['a lost answer', 'reset'],
	])('is not sent again after %s either: only a 429 is', async (_, status) => {
		server = await scriptedServer([status]);
		await run(roomGet, ['room-1']);
		expect(server.paths).toHaveLength(1);
	});

	it('is not repeated after a timeout, which already took the whole deadline', async () => {
		server = await scriptedServer(['silent']);
		const clock = fakeClock();
		const clients: PlatformClientFactory = (ctx, creates) => new PlatformClient(ctx, creates, { clock, pacers: new PacerRegistry(clock), policy: { deadlineMs: 200 } });
		const [json] = await run(roomGet, ['room-1'], clients);
		expect(errorOf(json).message).toMatch(/within 0\.2 s \(timeout\)/);
		expect(server.paths).toHaveLength(1);
	});
});

describe('the transport, for an operation that creates (POST)', () => {
	const roomCreate: ItemOperation = {
		kind: 'item',
		option: { name: 'Test', description: 'A test operation', action: 'Test' },
		properties: [],
		creates: 'room',
		async execute(this: IExecuteFunctions, itemIndex: number, platform: PlatformRequester) {
			return (await platform.request({ method: 'POST', path: ['rooms'], body: { name: 'Biology' } })).body as IDataObject;
		},
	};

	it.each<[string, ScriptedAnswer]>([
		['a server error', 503],
		['a lost answer', 'reset'],
	])('never sends it again after %s, since the room may exist', async (_, answer) => {
		server = await scriptedServer([answer]);
		const [json] = await run(roomCreate, ['-']);
		expect(server.paths).toEqual(['/v1/rooms']);
		expect(errorOf(json).description).toMatch(/not (repeated|sent again)/);
	});

	it('keeps "check the Base URL" as the meaning of a 404', async () => {
		server = await scriptedServer([404]);
		const [json] = await run(roomCreate, ['-']);
		expect(errorOf(json).description).toContain("Check the credential's Base URL");
	});
});
