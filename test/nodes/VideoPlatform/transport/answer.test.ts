import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

import type { NodeApiError } from 'n8n-workflow';

import type { ReadAnswer } from '../../../../nodes/VideoPlatform/transport/answer';
import { decodeSuccess, isHtmlPage, readAnswer } from '../../../../nodes/VideoPlatform/transport/answer';
import { requestError } from '../../../../nodes/VideoPlatform/transport/messages';
import { Deadline } from '../../../../nodes/VideoPlatform/transport/stop';
import { PlatformClient } from '../../../../nodes/VideoPlatform/transport';
import { createExecuteContext, realHttp } from '../../../helpers/executeContext';
import {
	createRoom,
	failedCreateRoom as failed,
	MAY_HAVE_CREATED_ROOM as MAY_HAVE,
} from '../../../helpers/platformClient';
import { SANDBOX_KEY } from '../../../helpers/sandbox';
import { handAnsweredServerForTests } from '../../../helpers/scriptedServer';

const whole = (text: string): ReadAnswer => ({ outcome: 'whole', bytes: Buffer.from(text) });
const json = { 'content-type': 'application/json' };

/** The body a 201 answer gives the operation. */
function decoded(answer: ReadAnswer, headers: Record<string, unknown>): unknown {
	const outcome = decodeSuccess(answer, { headers, statusCode: 201 });
	if (outcome.kind !== 'answered') throw new Error(`expected the answer to decode, got ${outcome.kind}`);
	return outcome.response.body;
}

/** The error the item gets for a 201 answer that cannot be read. */
function decodeError(answer: ReadAnswer, headers: Record<string, unknown>): NodeApiError {
	const outcome = decodeSuccess(answer, { headers, statusCode: 201 });
	if (outcome.kind === 'answered' || outcome.kind === 'rate-limited') throw new Error('expected the answer to be undecodable');
	return requestError(outcome, failed) as NodeApiError;
}

describe('decodeSuccess', () => {
	it.each(['utf-8', 'utf-16le', 'utf-16be', 'shift_jis', 'iso-2022-jp', 'gb18030'])(
		'reads a %s answer after a broken one in the same charset as it reads it first (its decoder is reused)',
		(charset) => {
			const headers = { 'content-type': `application/json; charset=${charset}` };
			const good = { outcome: 'whole' as const, bytes: Buffer.from(new TextEncoder().encode('{"id":"r1"}')) };
			if (charset === 'utf-16le') good.bytes = Buffer.from('{"id":"r1"}', 'utf16le');
			if (charset === 'utf-16be') good.bytes = Buffer.from('{"id":"r1"}', 'utf16le').swap16();
			const first = decoded(good, headers);
			// Cut inside a character: a lead byte, half a UTF-16 unit, an escape that switches mode.
			for (const broken of ['e282', '7b00220069', 'd800', '82', '1b244230']) {
				decodeSuccess({ outcome: 'whole', bytes: Buffer.from(broken, 'hex') }, { headers, statusCode: 201 });
				expect(decoded(good, headers)).toEqual(first);
			}
			expect(first).toEqual({ id: 'r1' });
		},
	);

	it.each([
		['JSON', json, '{"id":"r1"}', { id: 'r1' }],
		['+json', { 'content-type': 'application/vnd.room+json; charset=utf-8' }, '{"id":"r1"}', { id: 'r1' }],
		['JSON after a byte-order mark', json, '\uFEFF{"id":"r1"}', { id: 'r1' }],
		['JSON not labelled JSON', { 'content-type': 'text/plain' }, '[1,2]', [1, 2]],
		['text not labelled JSON, as it came', { 'content-type': 'text/plain' }, 'Created', 'Created'],
		['text without a Content-Type', {}, 'Created', 'Created'],
		['an empty body', json, '', ''],
		['an identity Content-Encoding', { ...json, 'content-encoding': 'identity' }, '{"id":"r1"}', { id: 'r1' }],
	])('%p', (_case, headers, text, expected) => {
		expect(decoded(whole(text), headers)).toEqual(expected);
	});

	it.each([
		['a coding the client left', { 'content-encoding': 'gzip, gzip' }, 'its Content-Encoding is "gzip, gzip", which the node cannot read'],
		['an unknown coding', { 'content-encoding': 'x-custom' }, 'its Content-Encoding is "x-custom", which the node cannot read'],
		['JSON that is not JSON', json, 'it is labelled JSON but is not valid JSON'],
	])('%p fails the item: the room may exist', (_case, headers, why) => {
		const error = decodeError(whole('{"id":'), headers);
		expect(error.message).toBe(`The platform's answer (HTTP 201) could not be decoded: ${why} [item 2]`);
		expect(error.description).toBe(MAY_HAVE);
		expect(error.httpCode).toBe('201');
	});

	it('a body the client could not decompress', () => {
		const error = decodeError({ outcome: 'undecodable', bytes: Buffer.alloc(0) }, json);
		expect(error.message).toBe(
			"The platform's answer (HTTP 201) could not be decoded: its compressed body is damaged [item 2]",
		);
	});

	it('a Content-Encoding that echoes the key is shown without it, and cut short', () => {
		const error = decodeError(whole('{}'), { 'content-encoding': `x-${failed.secret}-${'z'.repeat(200)}` });
		expect(JSON.stringify([error, error.message, error.description])).not.toContain(failed.secret);
		expect(error.message).toMatch(/"x-\[redacted\]-z+…"/);
	});
});

describe('JSON nested too deeply to be copied and saved as an item', () => {
	const nestedId = (levels: number) => `{"id":${'['.repeat(levels)}${']'.repeat(levels)}}`;

	it('fails the item, rather than crash n8n later: the room may exist', () => {
		const error = decodeError(whole(nestedId(5000)), json);
		expect(error.message).toBe(
			"The platform's answer (HTTP 201) is JSON nested more than 100 levels deep, more than the node accepts [item 2]",
		);
		expect(error.description).toMatch(new RegExp(`^${MAY_HAVE.replace(/[.;]/g, '\\$&')} `));
		expect(error.httpCode).toBe('201');
	});

	it('fails it also when the answer is not labelled JSON', () => {
		expect(decodeError(whole(nestedId(101)), { 'content-type': 'text/plain' }).message).toMatch(/nested more than 100 levels/);
	});

	it('accepts the deepest answer it allows', () => {
		expect(decoded(whole(nestedId(99)), json)).toEqual(JSON.parse(nestedId(99)));
	});
});

describe('the request asks for an answer that is not compressed, through n8n-core\'s real client', () => {
	it('sends Accept-Encoding: identity, as the one Accept-Encoding header', async () => {
		const seen: IncomingHttpHeaders[] = [];
		const rawNames: string[][] = [];
		const server = createServer((request, response) => {
			seen.push(request.headers);
			rawNames.push(request.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()));
			request.resume();
			response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"r1"}');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			const context = createExecuteContext({ credentials: { baseUrl, apiKey: SANDBOX_KEY } });
			await new PlatformClient(context, 'room').request(createRoom, 0);
			expect(seen.map((headers) => headers['accept-encoding'])).toEqual(['identity']);
			expect(rawNames[0].filter((name) => name === 'accept-encoding')).toHaveLength(1);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe('readAnswer tells a failed decompression from a cut-off', () => {
	const failingWith = (code: string) =>
		new Readable({
			read() {
				this.destroy(Object.assign(new Error('decoder failed'), { code }));
			},
		});

	it.each(['Z_DATA_ERROR', 'Z_BUF_ERROR', 'ERR__ERROR_FORMAT_PADDING_1', 'ZSTD_error_prefix_unknown'])(
		'%p: undecodable',
		async (code) => {
			expect((await readAnswer(failingWith(code), 1024, new Deadline(5000))).outcome).toBe('undecodable');
		},
	);

	it('ECONNRESET: cut off', async () => {
		expect((await readAnswer(failingWith('ECONNRESET'), 1024, new Deadline(5000))).outcome).toBe('cut-off');
	});
});

describe('isHtmlPage', () => {
	it.each([
		['text/html; charset=utf-8', '{}', true],
		['application/json', '  <!DOCTYPE html><html></html>', true],
		[undefined, '<html lang="en">', true],
		['application/json', '{"name":"<html>"}', false],
		['text/plain', 'Created', false],
	])('%p with %p: %p', (contentType, text, expected) => {
		expect(isHtmlPage(contentType, text)).toBe(expected);
	});
});

describe('readAnswer reads the stream by its events', () => {
	it("keeps n8n's client's own listeners on the stream, and a late error of it is not uncaught", async () => {
		const body = Readable.from([Buffer.from('{"id":"r1"}')]);
		const clientsOwn = jest.fn();
		body.on('end', clientsOwn);
		const answer = await readAnswer(body, 1024, new Deadline(5000));
		expect(answer).toEqual({ outcome: 'whole', bytes: Buffer.from('{"id":"r1"}') });
		expect(clientsOwn).toHaveBeenCalledTimes(1);
		expect(() => body.emit('error', new Error('late'))).not.toThrow();
	});

	it('a stream closed before its end is cut off, with the bytes read so far', async () => {
		const body = new Readable({ read() {} });
		body.push(Buffer.from('{"id":'));
		setImmediate(() => body.destroy());
		expect(await readAnswer(body, 1024, new Deadline(5000))).toEqual({ outcome: 'cut-off', bytes: Buffer.from('{"id":') });
	});

	it('stops at maxBytes and destroys the stream, keeping the start', async () => {
		const body = Readable.from([Buffer.from('abcdef'), Buffer.from('ghij')]);
		expect(await readAnswer(body, 8, new Deadline(5000))).toEqual({ outcome: 'overflowed', bytes: Buffer.from('abcdefgh') });
		expect(body.destroyed).toBe(true);
	});

	it('a stream that has already ended is read as whole at once, not waited on', async () => {
		const body = Readable.from([]);
		body.resume();
		await new Promise((resolve) => body.on('end', resolve));
		expect((await readAnswer(body, 1024, new Deadline(5000))).outcome).toBe('whole');
	});

	it('a deadline that ends during the read says deadline', async () => {
		const body = new Readable({ read() {} });
		body.push(Buffer.from('{'));
		expect((await readAnswer(body, 1024, new Deadline(20))).outcome).toBe('deadline');
	});
});

describe("the deadline ends a read whose server went silent, through n8n's client", () => {
	const server = handAnsweredServerForTests();

	const send = async (deadlineMs: number) => {
		const credentials = { baseUrl: server.url, apiKey: SANDBOX_KEY };
		const context = createExecuteContext({ credentials, http: realHttp(credentials) });
		return await new PlatformClient(context, 'room', { policy: { deadlineMs } }).request(createRoom, 0).then(
			(response) => ({ body: response.body }),
			(error: NodeApiError) => ({ error: error.message }),
		);
	};

	// n8n 2.x's client wraps the answer in a stream that emits nothing while its server is silent,
	// even once destroyed: without its own end, this read waited for ever.
	it.each([
		['headers and part of the body', (response: ServerResponse) => response.writeHead(201, { 'content-type': 'application/json' }).write('{"id":')],
		['headers only', (response: ServerResponse) => response.writeHead(201, { 'content-type': 'application/json' }).flushHeaders()],
	])('%s, then silence: the item fails at the deadline', async (_, stall) => {
		server.answerWith(stall);
		expect(await send(300)).toEqual({ error: expect.stringMatching(/within 0\.3 s \(timeout\)/) });
	});
});

describe('readAnswer and streams in other states', () => {
	it('reads a stream someone paused', async () => {
		const body = new Readable({ read() {} });
		body.push(Buffer.from('{"id":"r1"}'));
		body.push(null);
		body.pause();
		expect(await readAnswer(body, 1024, new Deadline(5000))).toEqual({ outcome: 'whole', bytes: Buffer.from('{"id":"r1"}') });
	});

	it('a stream already destroyed by a failed decompression is undecodable, not cut off', async () => {
		const body = new Readable({ read() {} });
		body.on('error', () => {});
		body.destroy(Object.assign(new Error('decoder failed'), { code: 'Z_DATA_ERROR' }));
		expect((await readAnswer(body, 1024, new Deadline(5000))).outcome).toBe('undecodable');
	});
});
