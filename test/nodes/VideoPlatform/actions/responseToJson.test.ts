import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { responseToJson } from '../../../../nodes/VideoPlatform/actions/responseToJson';
import { anyCodePoint } from '../../../helpers/unicode';

describe('responseToJson', () => {
	it('passes a JSON object answer through as it is', () => {
		fc.assert(
			fc.property(fc.dictionary(fc.string({ unit: anyCodePoint }), fc.jsonValue({ stringUnit: anyCodePoint })), fc.integer({ min: 200, max: 299 }), (body, statusCode) => {
				expect(responseToJson({ statusCode, body })).toBe(body);
			}),
		);
	});

	// The success body is not published: anything else is kept under `response`, with the status.
	// (Room → Create's test passes texts, lists and broken JSON through the transport to here.)
	it.each<[unknown, IDataObject]>([
		[null, { statusCode: 201, response: null }],
		[7, { statusCode: 201, response: 7 }],
		[false, { statusCode: 201, response: false }],
		[[{ id: 'r1' }], { statusCode: 201, response: [{ id: 'r1' }] }],
	])('wraps %p', (body, expected) => {
		expect(responseToJson({ statusCode: 201, body })).toEqual(expected);
	});
});
