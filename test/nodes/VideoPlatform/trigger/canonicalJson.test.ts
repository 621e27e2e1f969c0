import fc from 'fast-check';

import { canonicalJson } from '../../../../nodes/VideoPlatform/trigger/canonicalJson';

describe('canonicalJson', () => {
	it('is JSON of the same value, whatever the order of its keys, full Unicode included', () => {
		fc.assert(
			fc.property(fc.jsonValue({ maxDepth: 5, stringUnit: 'binary' }), (value) => {
				const text = canonicalJson(value);
				expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
				const reversed = JSON.parse(JSON.stringify(value), (_key, inner: unknown) =>
					inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).reverse()) : inner,
				) as unknown;
				expect(canonicalJson(reversed)).toBe(text);
			}),
			{ numRuns: 300 },
		);
	});

	it('writes keys sorted, and a value JSON has no text for as null', () => {
		expect(canonicalJson({ b: [undefined, 1], a: { d: null, c: 'é' } })).toBe('{"a":{"c":"é","d":null},"b":[null,1]}');
	});
});
