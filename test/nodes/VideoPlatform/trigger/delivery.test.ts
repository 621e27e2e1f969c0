import fc from 'fast-check';

import { bodyTextOf, deliveryItem, payloadOf, valueAt } from '../../../../nodes/VideoPlatform/trigger/delivery';

const delivery = (rawBody: Buffer | string | undefined, encoding?: string, parsedBody?: unknown) => ({ rawBody, encoding, parsedBody, headers: {}, query: {} });

describe("the body's text, as n8n decodes a body it parses", () => {
	it("decodes with n8n's charset as Buffer does, whatever the text", () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), fc.constantFrom('utf-8', 'utf8', 'utf-16le', 'utf16le', 'ucs2', 'ucs-2', 'latin1', 'binary', 'base64', 'hex'), (text, label) => {
				const bytes = Buffer.from(text, 'utf16le');
				expect(bodyTextOf(delivery(bytes, label))).toBe(bytes.toString(label as BufferEncoding));
			}),
		);
	});

	it('reads UTF-8 without a charset, and where Node knows none of that name (n8n refuses such a JSON body)', () => {
		const bytes = Buffer.from('{"name":"Grüße"}');
		expect(bodyTextOf(delivery(bytes))).toBe('{"name":"Grüße"}');
		expect(bodyTextOf(delivery(bytes, 'iso-8859-1'))).toBe('{"name":"Grüße"}');
		expect(bodyTextOf(delivery(undefined, 'utf-16le'))).toBe('');
	});
});

describe('the payload of a body the trigger parses itself', () => {
	it('is the JSON in its charset, a leading byte-order mark dropped as n8n 2.x drops it', () => {
		fc.assert(
			fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 })), fc.constantFrom('utf-8', 'utf-16le'), fc.boolean(), (object, label, mark) => {
				const text = JSON.stringify(object);
				const bytes = Buffer.from(`${mark ? '\ufeff' : ''}${text}`, label as BufferEncoding);
				expect(payloadOf(delivery(bytes, label))).toEqual(JSON.parse(bytes.toString(label as BufferEncoding).replace(/^\ufeff/, '')));
			}),
		);
	});

	it('keeps a byte-order mark in a body that is not JSON', () => {
		expect(payloadOf(delivery(Buffer.from('\ufeffhello', 'utf16le'), 'utf-16le'))).toEqual({ body: '\ufeffhello' });
	});
});

describe('the payload of a body n8n parsed', () => {
	it('is the object n8n parsed, whatever the raw bytes say', () => {
		expect(payloadOf(delivery('{"id":"raw"}', undefined, { id: 'parsed' }))).toEqual({ id: 'parsed' });
	});

	it('is an empty object n8n parsed from an empty or blank body as it is', () => {
		for (const raw of [undefined, '', '  \n']) expect(payloadOf(delivery(raw, undefined, {}))).toEqual({});
	});

	it('is read from the raw bytes where n8n left the body unread as an empty object (a type it does not parse)', () => {
		expect(payloadOf(delivery('{"id":"evt-1"}', undefined, {}))).toEqual({ id: 'evt-1' });
		expect(payloadOf(delivery('plain words', undefined, {}))).toEqual({ body: 'plain words' });
	});

	it('puts a list n8n parsed under body, also without raw bytes', () => {
		expect(payloadOf(delivery(undefined, undefined, [1, { a: 2 }]))).toEqual({ body: [1, { a: 2 }] });
	});

	it('reads text n8n handed over as a string, raw bytes first', () => {
		expect(payloadOf(delivery(undefined, undefined, '{"id":"from-text"}'))).toEqual({ id: 'from-text' });
		expect(payloadOf(delivery(undefined, undefined, 'hello'))).toEqual({ body: 'hello' });
		expect(payloadOf(delivery('{"id":"raw"}', undefined, 'hello'))).toEqual({ id: 'raw' });
	});
});

describe('the item a delivery starts the workflow with', () => {
	it("keeps the payload at the top level, the request's details under _webhook without the hidden headers, and a payload's own _webhook inside them", () => {
		const incoming = { ...delivery('', undefined, { id: 'd1', _webhook: { forged: true } }), headers: { 'X-Secret': 's', 'user-agent': 'platform' }, query: { a: '1' } };
		expect(deliveryItem(incoming, ['x-secret'], '2026-11-29T08:00:00.000Z', { deliveryKey: 'id:d1' })).toEqual({
			id: 'd1',
			_webhook: {
				headers: { 'user-agent': 'platform' },
				query: { a: '1' },
				receivedAt: '2026-11-29T08:00:00.000Z',
				deliveryKey: 'id:d1',
				fromPayload: { forged: true },
			},
		});
	});

	it('has no fromPayload in its details when the payload has no _webhook of its own', () => {
		const item = deliveryItem(delivery('', undefined, { id: 'd2' }), [], '2026-11-29T08:00:00.000Z');
		expect(Object.keys(item._webhook as object)).toEqual(['headers', 'query', 'receivedAt']);
	});
});

describe('a field of the payload by its dot path', () => {
	it('reads nested fields, and finds nothing past a null, a number or a missing field, without throwing', () => {
		const payload = { data: { room: { id: 'r1' }, none: null, count: 3 } };
		expect(valueAt(payload, 'data.room.id')).toBe('r1');
		for (const path of ['data.none.id', 'data.count.id', 'data.missing.id', 'data.room.constructor']) expect(valueAt(payload, path)).toBeUndefined();
	});
});
