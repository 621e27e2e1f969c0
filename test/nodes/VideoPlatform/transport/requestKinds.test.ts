import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../../nodes/VideoPlatform/actions/resources';
import { runPerItem } from '../../../../nodes/VideoPlatform/actions/runPerItem';
import type { PlatformRequester } from '../../../../nodes/VideoPlatform/transport';
import { systemClock } from '../../../../nodes/VideoPlatform/transport/rateLimit';
import { createExecuteContext } from '../../../helpers/executeContext';
import { testClients } from '../../../helpers/platformClient';

/**
 * A Room → Get that exists only here: the platform has published no such endpoint. It shows what
 * an operation that reads gets from the transport without any code of its own: path encoding,
 * its own 404, and retries after server errors and lost answers.
 */
const roomGet: ItemOperation = {
	kind: 'item',
	description: [],
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

type Answer = number | 'reset';

/** Answers each request with the next of `answers` (then 200), and records the paths asked for. */
async function scriptedServer(answers: Answer[]) {
	const paths: string[] = [];
	const server: Server = createServer((req, res) => {
		paths.push(req.url ?? '');
		const answer = answers.shift() ?? 200;
		if (answer === 'reset') {
			req.socket.destroy();
			return;
		}
		res.writeHead(answer, { 'content-type': 'application/json' });
		res.end(JSON.stringify(answer === 200 ? { id: 'room-1' } : { message: 'not now' }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { url, paths, stop: async () => await new Promise((resolve) => server.close(resolve)) };
}

let server: Awaited<ReturnType<typeof scriptedServer>>;
afterEach(async () => await server?.stop());

function run(operation: ItemOperation, ids: unknown[], cancelSignal?: AbortSignal, clients = testClients()) {
	const context = createExecuteContext({
		credentials: { baseUrl: server.url, apiKey: 'sk_request_kinds' },
		items: ids.map(() => ({ json: {} })),
		continueOnFail: true,
		cancelSignal,
		parameters: { roomId: (i: number) => ids[i], name: 'Biology', type: 'conference' },
	});
	return runPerItem.call(context, operation, clients).then(([items]) => items.map((item) => item.json));
}

const errorOf = (json: IDataObject) => json.error as { message: string; description: string; httpCode: number | null };

describe('the transport, for an operation that reads (GET)', () => {
	it('encodes each path segment, so an ID cannot reach another path', async () => {
		server = await scriptedServer([]);
		await run(roomGet, ['a/b?c#d', 'café 1', '%2F..']);
		expect(server.paths).toEqual(['/v1/rooms/a%2Fb%3Fc%23d', '/v1/rooms/caf%C3%A9%201', '/v1/rooms/%252F..']);
	});

	it('refuses an empty or dot-segment ID and sends nothing for it', async () => {
		server = await scriptedServer([]);
		const [empty, up] = await run(roomGet, ['', '..']);
		expect(errorOf(empty).message).toBe('A value in the request\'s path is empty, "." or ".." [item 0]');
		expect(errorOf(up).message).toBe('A value in the request\'s path is empty, "." or ".." [item 1]');
		expect(server.paths).toEqual([]);
	});

	it("says what the operation says a 404 means, not that the Base URL is wrong", async () => {
		server = await scriptedServer([404]);
		const [json] = await run(roomGet, ['gone']);
		expect(errorOf(json)).toMatchObject({ message: 'No room has the ID gone [item 0]', description: 'Check the room ID.', httpCode: 404 });
	});

	it('sends it again after server errors and a lost answer, and returns what finally came', async () => {
		server = await scriptedServer([503, 'reset']);
		const [json] = await run(roomGet, ['room-1']);
		expect(json).toEqual({ id: 'room-1' });
		expect(server.paths).toHaveLength(3);
	});

	it('gives up after two retries, saying how often it was sent and that nothing changed', async () => {
		server = await scriptedServer([500, 502, 503, 200]);
		const [json] = await run(roomGet, ['room-1']);
		expect(errorOf(json).message).toBe('The platform had a server error (HTTP 503): not now [item 0]');
		expect(errorOf(json).description).toBe('The request only reads, so it changed nothing; it was sent 3 times. Run this item again later.');
		expect(server.paths).toHaveLength(3);
	});

	it('has one 429 budget however often it is sent again after a server error', async () => {
		server = await scriptedServer([429, 429, 429, 503, 429, 429, 429]);
		const [json] = await run(roomGet, ['room-1']);
		expect(errorOf(json).message).toMatch(/^The platform's rate limit refused this item 6 times/);
		expect(server.paths).toHaveLength(7);
	});

	it('is not repeated for a client error', async () => {
		server = await scriptedServer([422]);
		await run(roomGet, ['room-1']);
		expect(server.paths).toHaveLength(1);
	});

	it('stops waiting to retry at once when the user stops the execution', async () => {
		server = await scriptedServer([503, 503, 503]);
		const cancel = new AbortController();
		// Real time: the first retry waits 1 s unless the stop ends it.
		const running = run(roomGet, ['room-1'], cancel.signal, testClients(systemClock));
		while (server.paths.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
		const stoppedAt = Date.now();
		cancel.abort();
		const [json] = await running;
		expect(Date.now() - stoppedAt).toBeLessThan(500);
		expect(errorOf(json).message).toBe('The platform had a server error (HTTP 503): not now [item 0]');
		expect(server.paths).toHaveLength(1);
	});
});

describe('the transport, for an operation that creates (POST)', () => {
	const roomCreate: ItemOperation = {
		kind: 'item',
		description: [],
		creates: 'room',
		async execute(this: IExecuteFunctions, itemIndex: number, platform: PlatformRequester) {
			return (await platform.request({ method: 'POST', path: ['rooms'], body: { name: 'Biology' } })).body as IDataObject;
		},
	};

	it.each<[string, Answer]>([
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
