import fc from 'fast-check';

import { bodyTextOf, payloadOf } from '../../../../nodes/VideoPlatform/trigger/delivery';

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
