import { Readable } from 'node:stream';

import type { NodeApiError } from 'n8n-workflow';

import type { ReadAnswer } from '../../../../nodes/VideoPlatform/transport/answer';
import { readAnswer } from '../../../../nodes/VideoPlatform/transport/answer';
import { Deadline } from '../../../../nodes/VideoPlatform/transport/deadline';
import { decodeSuccess, isHtmlPage } from '../../../../nodes/VideoPlatform/transport/decode';
import { failedCreateRoom as failed, MAY_HAVE_CREATED_ROOM as MAY_HAVE } from '../../../helpers/platformClient';

const whole = (text: string): ReadAnswer => ({ outcome: 'whole', text });
const json = { 'content-type': 'application/json' };

function decodeError(answer: ReadAnswer, headers: Record<string, unknown>): NodeApiError {
	try {
		decodeSuccess(answer, headers, failed, 201);
	} catch (error) {
		return error as NodeApiError;
	}
	throw new Error('expected the answer to be undecodable');
}

describe('decodeSuccess', () => {
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
		expect(decodeSuccess(whole(text), headers, failed, 201)).toEqual(expected);
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
		const error = decodeError({ outcome: 'undecodable', text: '' }, json);
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
