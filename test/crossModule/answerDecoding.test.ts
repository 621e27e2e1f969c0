import type { OutgoingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

import fc from 'fast-check';
import type { NodeApiError } from 'n8n-workflow';

import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { createExecuteContext } from '../helpers/executeContext';
import { createRoom, MAY_HAVE_CREATED_ROOM as MAY_HAVE } from '../helpers/platformClient';
import { SANDBOX_KEY } from '../helpers/sandbox';
import { anyText } from '../helpers/unicode';

/**
 * Successful answers are read right or not at all, through n8n-core's real client: the charset
 * a Content-Type declares, and compressed answers cut short (which n8n's client inflates
 * without an error: it flushes what came and drops the Content-Encoding, see answer.ts).
 */

interface Answer {
	status: number;
	headers: OutgoingHttpHeaders;
	body: Buffer;
	/** Sent with Transfer-Encoding: chunked rather than a Content-Length. */
	chunked?: boolean;
}

let next: Answer;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
	server = createServer((request, response) => {
		request.resume();
		const { status, headers, body, chunked } = next;
		response.writeHead(status, chunked ? headers : { ...headers, 'content-length': body.length });
		response.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

/** Room → Create once against the local server answering `answer`: the body, or the error. */
async function send(answer: Answer): Promise<{ body: unknown } | { error: NodeApiError }> {
	next = answer;
	const context = createExecuteContext({ credentials: { baseUrl, apiKey: SANDBOX_KEY } });
	return await new PlatformClient(context, 'room').request(createRoom, 0).then(
		(response) => ({ body: response.body }),
		(error: NodeApiError) => ({ error }),
	);
}

const couldNotDecode = (why: string) => `The platform's answer (HTTP 201) could not be decoded: ${why} [item 0]`;

const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

/** Charsets and how a server would write them: the labels vary in case, quoting and spaces. */
const CHARSETS: Array<{ labels: string[]; encode: (text: string) => Buffer; chars: fc.Arbitrary<string> }> = [
	{
		labels: ['latin1', 'ISO-8859-1', 'iso_8859-1', 'windows-1252', 'us-ascii'],
		encode: (text) => Buffer.from(text, 'latin1'),
		// Latin-1's letters and signs, bar the C1 controls, which windows-1252 reads otherwise.
		chars: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)),
	},
	{ labels: ['utf-8', 'UTF8', 'unicode-1-1-utf-8'], encode: (text) => Buffer.from(text, 'utf8'), chars: fc.string({ unit: 'grapheme', maxLength: 1 }) },
	{ labels: ['utf-16le', 'UTF-16'], encode: (text) => Buffer.from(text, 'utf16le'), chars: fc.string({ unit: 'grapheme', maxLength: 1 }) },
	{ labels: ['utf-16be'], encode: utf16be, chars: fc.string({ unit: 'grapheme', maxLength: 1 }) },
];

const labelled = (label: string, quote: boolean, upper: boolean) =>
	`application/json; charset=${quote ? `"${upper ? label.toUpperCase() : label}"` : upper ? label.toUpperCase() : label}`;

describe('a 2xx answer is read in the charset its Content-Type declares', () => {
	it('names in every charset come out as sent', async () => {
		const cases = fc.oneof(
			...CHARSETS.map(({ labels, encode, chars }) =>
				fc.record({
					label: fc.constantFrom(...labels),
					quote: fc.boolean(),
					upper: fc.boolean(),
					name: fc.array(chars, { minLength: 1, maxLength: 12 }).map((parts) => parts.join('')),
					encode: fc.constant(encode),
				}),
			),
		);
		await fc.assert(
			fc.asyncProperty(cases, async ({ label, quote, upper, name, encode }) => {
				const body = encode(JSON.stringify({ id: 'room-1', name }));
				const result = await send({ status: 201, headers: { 'content-type': labelled(label, quote, upper) }, body });
				expect(result).toEqual({ body: { id: 'room-1', name } });
			}),
			{ numRuns: 80 },
		);
	});

	it('an example: Latin-1, which read as UTF-8 would give replacement characters', async () => {
		const body = Buffer.from('{"name":"Biologie für Anfänger"}', 'latin1');
		const result = await send({ status: 201, headers: { 'content-type': 'application/json;charset=latin1' }, body });
		expect(result).toEqual({ body: { name: 'Biologie für Anfänger' } });
	});

	it('UTF-16 without a declared charset, by its byte-order mark', async () => {
		for (const body of [Buffer.from('\uFEFF{"name":"Zoë"}', 'utf16le'), utf16be('\uFEFF{"name":"Zoë"}')]) {
			expect(await send({ status: 201, headers: { 'content-type': 'application/json' }, body })).toEqual({ body: { name: 'Zoë' } });
		}
	});

	it('an error answer in Latin-1 is quoted right too', async () => {
		const body = Buffer.from('{"message":"Le nom est déjà pris"}', 'latin1');
		const result = await send({ status: 422, headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body });
		expect('error' in result && result.error.message).toBe('The platform rejected the request (HTTP 422): Le nom est déjà pris [item 0]');
	});
});

describe('a 2xx answer that cannot be read in its charset fails the item: the room may exist', () => {
	it('any charset the node does not know', async () => {
		const unknown = fc
			.stringMatching(/^[a-z][a-z0-9_-]{0,20}$/)
			.filter((label) => {
				try {
					new TextDecoder(label);
					return false;
				} catch {
					return true;
				}
			});
		await fc.assert(
			fc.asyncProperty(unknown, async (label) => {
				const result = await send({ status: 201, headers: { 'content-type': `application/json; charset=${label}` }, body: Buffer.from('{"id":"room-1"}') });
				expect('error' in result && [result.error.message, result.error.description]).toEqual([
					couldNotDecode(`its charset is "${label}", which the node cannot read`),
					MAY_HAVE,
				]);
			}),
			{ numRuns: 40 },
		);
	});

	it.each([
		['iso-2022-kr', 'its charset is "iso-2022-kr", which the node cannot read'],
		['x-user-defined', 'its charset is "x-user-defined", which the node cannot read'],
	])('%p, which no decoder reads', async (label, why) => {
		const result = await send({ status: 201, headers: { 'content-type': `application/json; charset=${label}` }, body: Buffer.from('{}') });
		expect('error' in result && result.error.message).toBe(couldNotDecode(why));
	});

	it('bytes that are not UTF-8, declared or not, rather than replacement characters', async () => {
		// A name whose last character lost its last byte: a UTF-8 sequence cut in two.
		const cut = (name: string) => Buffer.from(`${name}é`, 'utf8').subarray(0, -1);
		await fc.assert(
			fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('application/json', 'application/json; charset=utf-8', undefined), async (name, contentType) => {
				const body = Buffer.concat([Buffer.from('{"name":"'), cut(name), Buffer.from('"}')]);
				const result = await send({ status: 201, headers: contentType ? { 'content-type': contentType } : {}, body });
				expect('error' in result && [result.error.message, result.error.description]).toEqual([couldNotDecode('its body is not valid utf-8 text'), MAY_HAVE]);
			}),
			{ numRuns: 20 },
		);
	});
});

const CODINGS: Record<string, (data: Buffer) => Buffer> = {
	gzip: (data) => zlib.gzipSync(data),
	deflate: (data) => zlib.deflateSync(data),
	br: (data) => zlib.brotliCompressSync(data),
};

const roomAnswer = fc.record({ id: anyText({ minLength: 1, maxLength: 20 }), name: anyText({ maxLength: 200 }) });

describe('a compressed 2xx answer, which the node asked not to get (Accept-Encoding: identity)', () => {
	it('whole: read as sent, with or without a Content-Length', async () => {
		await fc.assert(
			fc.asyncProperty(roomAnswer, fc.constantFrom(...Object.keys(CODINGS)), fc.boolean(), async (room, coding, chunked) => {
				const body = CODINGS[coding](Buffer.from(JSON.stringify(room)));
				const result = await send({ status: 201, headers: { 'content-type': 'application/json', 'content-encoding': coding }, body, chunked });
				expect(result).toEqual({ body: room });
			}),
			{ numRuns: 40 },
		);
	});

	it('cut short inside a whole HTTP answer: fails, or passes only with every byte of the room', async () => {
		const contentTypes = fc.constantFrom(undefined, 'application/json', 'text/plain');
		await fc.assert(
			fc.asyncProperty(roomAnswer, fc.constantFrom(...Object.keys(CODINGS)), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), contentTypes, async (room, coding, at, contentType) => {
				const whole = CODINGS[coding](Buffer.from(JSON.stringify(room)));
				// At least one byte: an empty body with a Content-Length of 0 is an empty answer, compressed or not.
				const body = whole.subarray(0, 1 + Math.floor((whole.length - 1) * at));
				const headers: OutgoingHttpHeaders = { 'content-encoding': coding, ...(contentType ? { 'content-type': contentType } : {}) };
				const result = await send({ status: 201, headers, body });
				if ('body' in result) {
					expect(result.body).toEqual(room);
					return;
				}
				expect(result.error.message).toMatch(/^The platform's answer \(HTTP 201\) could not be decoded: /);
				expect(result.error.description).toBe(MAY_HAVE);
			}),
			{ numRuns: 120 },
		);
	});

	it.each(Object.keys(CODINGS))('%p that inflates to nothing is not an empty success', async (coding) => {
		const body = CODINGS[coding](Buffer.from('{"id":"room-1"}')).subarray(0, coding === 'gzip' ? 10 : 1);
		const result = await send({ status: 201, headers: { 'content-type': 'application/json', 'content-encoding': coding }, body });
		expect('error' in result && [result.error.message, result.error.description]).toEqual([
			couldNotDecode('it came compressed (the node asks for no compression), and its body does not show that it arrived whole'),
			MAY_HAVE,
		]);
	});

	it('labelled JSON and cut short without a Content-Length: fails as not JSON', async () => {
		const whole = zlib.gzipSync('{"id":"room-1","name":"Biology"}');
		const result = await send({ status: 201, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: whole.subarray(0, 24), chunked: true });
		expect('error' in result && result.error.message).toBe(couldNotDecode('it is labelled JSON but is not valid JSON'));
	});
});
