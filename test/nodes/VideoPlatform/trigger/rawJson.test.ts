import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../../../nodes/VideoPlatform/trigger/delivery';
import { canonicalJson } from '../../../../nodes/VideoPlatform/trigger/deliveryKey';
import { canonicalSource, exactSourceAt, sourceAt } from '../../../../nodes/VideoPlatform/trigger/rawJson';

/** JSON text of a value, with spaces and line breaks where JSON allows them. */
const spaced = (value: unknown, indent: number) => JSON.stringify(value, null, indent);

/** Every dot path of an object's own members, lists by index. */
function pathsOf(value: unknown, prefix = ''): string[] {
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([name, inner]) => {
		if (name.includes('.') || name === '') return [];
		const path = prefix === '' ? name : `${prefix}.${name}`;
		return [path, ...pathsOf(inner, path)];
	});
}

const payload = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }));

describe('sourceAt: the raw text of a field, as JSON.parse reads the body', () => {
	it('finds, for every path, text that parses to the value n8n’s parse has there', () => {
		fc.assert(
			fc.property(payload, fc.integer({ min: 0, max: 3 }), (object, indent) => {
				const raw = spaced(object, indent);
				const parsed = JSON.parse(raw) as IDataObject;
				for (const path of pathsOf(parsed)) {
					expect(JSON.parse(sourceAt(raw, path)!)).toEqual(valueAt(parsed, path));
				}
			}),
			{ numRuns: 120 },
		);
	});

	it('takes the last of two members with one name, as JSON.parse does', () => {
		expect(sourceAt('{"id": 1, "id": 12345678901234567891}', 'id')).toBe('12345678901234567891');
		expect(sourceAt('{"a": {"b": [0, {"c": "x\\"y"}]}}', 'a.b.1.c')).toBe('"x\\"y"');
		expect(sourceAt('[1]', '0')).toBeUndefined();
		expect(sourceAt('{"a": 1}', 'a.b')).toBeUndefined();
	});
});

describe('canonicalSource: the delivery key’s text', () => {
	it('is canonicalJson’s for every value JSON.parse reads exactly, so that keys stay the same', () => {
		fc.assert(
			fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 0, max: 3 }), (value, indent) => {
				const raw = spaced(value, indent);
				expect(canonicalSource(raw)).toBe(canonicalJson(JSON.parse(raw)));
			}),
			{ numRuns: 300 },
		);
	});

	it('keeps two integers apart that JSON.parse rounds to one number', () => {
		fc.assert(
			fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }), fc.bigInt({ min: 1n, max: 1000n }), (id, step) => {
				const [a, b] = [String(id), String(id + step)];
				expect(canonicalSource(`{"id":${a}}`)).not.toBe(canonicalSource(`{"id":${b}}`));
				expect(exactSourceAt(`{"id": ${a}}`, 'id', JSON.parse(a))).toBe(a);
			}),
		);
	});

	it('uses the raw text only where it holds what n8n parsed', () => {
		expect(exactSourceAt('{"id": 12345678901234567891}', 'id', JSON.parse('12345678901234567891'))).toBe('12345678901234567891');
		expect(exactSourceAt('{"id": 5}', 'id', 6)).toBeUndefined();
		expect(exactSourceAt('not json', 'id', 5)).toBeUndefined();
		expect(exactSourceAt(undefined, 'id', 5)).toBeUndefined();
	});
});
