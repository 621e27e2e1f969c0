import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import * as http from 'node:http';
import { PassThrough } from 'node:stream';
import { gzipSync, deflateSync } from 'node:zlib';

import type { WebhookRequest } from '../../../../nodes/VideoPlatform/trigger/body';
import { BODY_TOO_LARGE, BODY_UNREADABLE, MAX_BODY_BYTES, rawBodyOf } from '../../../../nodes/VideoPlatform/trigger/body';

// Real requests through Node's HTTP server, as n8n hands them to webhook(): an unread stream.
type Result = Awaited<ReturnType<typeof rawBodyOf>>;
let server: http.Server;
let url: string;
let handle: (request: http.IncomingMessage) => Promise<Result>;
let results: Array<Promise<Result>>;

beforeAll(async () => {
	server = http.createServer((request, response) => {
		const result = handle(request);
		results.push(result);
		void result.then((read) => response.writeHead(typeof read === 'string' ? 413 : 200).end(String(Buffer.isBuffer(read) ? read.length : read)));
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => server.close());
beforeEach(() => {
	results = [];
	handle = async (request) => await rawBodyOf(request, 1000);
});

const post = async (body: Buffer | string | undefined, headers: Record<string, string> = {}) => {
	const response = await fetch(url, { method: 'POST', headers, body });
	await response.text();
	return { status: response.status, read: await results[0] };
};
const bytes = Buffer.from([0x00, 0xff, 0x7b, 0x22, 0x0a, 0xc3, 0x28, 0x80]);

describe('the raw body, read by the trigger where n8n left it unread', () => {
	it.each([
		['application/octet-stream', { 'content-type': 'application/octet-stream' }],
		['a +json type', { 'content-type': 'application/vnd.platform+json; charset=utf-8' }],
		['no Content-Type', {}],
	])('reads the exact bytes of %s', async (_label, headers) => {
		expect(await post(bytes, headers)).toEqual({ status: 200, read: bytes });
	});

	it('reads an empty body as no bytes, as n8n does', async () => {
		expect((await post(undefined)).read).toEqual(Buffer.alloc(0));
	});

	it.each([
		['gzip', gzipSync],
		['deflate', deflateSync],
	])('undoes a %s Content-Encoding as n8n does', async (encoding, encode) => {
		const text = '{"id":"d1"}'.repeat(50);
		expect((await post(encode(text), { 'content-encoding': encoding })).read).toEqual(Buffer.from(text));
	});

	it('keeps the raw body n8n read, and reads nothing itself', async () => {
		handle = async (request) => {
			const n8nRead = Object.assign(request, { rawBody: Buffer.from('as n8n read it') });
			const read = await rawBodyOf(n8nRead, 1000);
			request.resume();
			return read;
		};
		expect((await post('sent', { 'content-type': 'application/json' })).read).toEqual(Buffer.from('as n8n read it'));
	});

	it('leaves a multipart body alone: n8n keeps no raw body of one, at any version', async () => {
		handle = async (request) => {
			const read = await rawBodyOf(request, 1000);
			request.resume();
			return read;
		};
		expect((await post('--x--', { 'content-type': 'multipart/mixed; boundary=x' })).read).toBeUndefined();
	});
});

describe('an over-long or broken body', () => {
	it('refuses a declared length over the limit before reading, and the answer is sent', async () => {
		expect(await post('x'.repeat(1001))).toEqual({ status: 413, read: BODY_TOO_LARGE });
	});

	it('refuses a body without a declared length once it passes the limit, and the answer is sent', async () => {
		const body = new ReadableStream({
			start(controller) {
				for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(100)));
				controller.close();
			},
		});
		const response = await fetch(url, { method: 'POST', body, duplex: 'half' } as RequestInit);
		expect(response.status).toBe(413);
		expect(await results[0]).toBe(BODY_TOO_LARGE);
	});

	it('counts the decoded bytes: a small gzip that inflates past the limit is refused', async () => {
		expect(await post(gzipSync(Buffer.alloc(100_000)), { 'content-encoding': 'gzip' })).toEqual({ status: 413, read: BODY_TOO_LARGE });
	});

	it('applies n8n’s default of 16 MiB: exactly that is read, one byte more is refused', async () => {
		handle = async (request) => await rawBodyOf(request);
		expect(MAX_BODY_BYTES).toBe(16 * 1024 * 1024);
		expect((await post(Buffer.alloc(MAX_BODY_BYTES))).read).toHaveLength(MAX_BODY_BYTES);
		results = [];
		expect((await post(Buffer.alloc(MAX_BODY_BYTES + 1))).read).toBe(BODY_TOO_LARGE);
	});

	it('refuses a declared length over the limit without reading the body: the declared length is enough', async () => {
		const stream = Object.assign(new PassThrough(), { headers: { 'content-length': '1001' } }) as unknown as WebhookRequest & PassThrough;
		const read = rawBodyOf(stream, 1000);
		stream.end();
		expect(await read).toBe(BODY_TOO_LARGE);
	});

	it('reads a gzip body that inflates to exactly the limit, and refuses one byte more', async () => {
		expect((await post(gzipSync(Buffer.alloc(1000)), { 'content-encoding': 'gzip' })).read).toEqual(Buffer.alloc(1000));
		results = [];
		expect((await post(gzipSync(Buffer.alloc(1001)), { 'content-encoding': 'gzip' })).read).toBe(BODY_TOO_LARGE);
	});

	it('settles as unreadable at once for a request already destroyed before its end', async () => {
		const stream = Object.assign(new PassThrough(), { headers: {} }) as unknown as WebhookRequest & PassThrough;
		stream.destroy();
		await once(stream, 'close');
		const waited = new Promise((resolve) => setTimeout(() => resolve('still waiting after 1 s'), 1000).unref());
		expect(await Promise.race([rawBodyOf(stream, 1000), waited])).toBe(BODY_UNREADABLE);
	});

	it('settles as unreadable when the body is not the gzip its Content-Encoding says', async () => {
		expect((await post('not gzip at all', { 'content-encoding': 'gzip' })).read).toBe(BODY_UNREADABLE);
	});

	it.each<[string, Record<string, string>]>([
		['unencoded', {}],
		['gzip', { 'content-encoding': 'gzip' }],
	])('settles as unreadable, not hanging, when the sender goes away mid-body (%s)', async (_label, headers) => {
		const arrived = new Promise<void>((resolve) => {
			handle = async (request) => {
				const read = rawBodyOf(request, 1000);
				resolve();
				return await read;
			};
		});
		const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': '900' } });
		request.on('error', () => undefined);
		request.write(headers['content-encoding'] ? gzipSync('x'.repeat(900)).subarray(0, 20) : 'x'.repeat(100));
		await arrived;
		request.destroy();
		expect(await results[0]).toBe(BODY_UNREADABLE);
	});

	it('settles as unreadable for a stream already read to its end by someone else', async () => {
		handle = async (request) => {
			request.resume();
			await once(request, 'end');
			return await rawBodyOf(request, 1000);
		};
		expect((await post('already read')).read).toBe(BODY_UNREADABLE);
	});

	it('settles as unreadable when the stream closes before its end without an error', async () => {
		const stream = Object.assign(new PassThrough(), { headers: {} }) as unknown as WebhookRequest & PassThrough;
		const read = rawBodyOf(stream, 1000);
		stream.write('part of it');
		stream.destroy();
		expect(await read).toBe(BODY_UNREADABLE);
	});
});
