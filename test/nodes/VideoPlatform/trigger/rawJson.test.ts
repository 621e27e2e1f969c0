import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../../../nodes/VideoPlatform/trigger/delivery';
import { canonicalJson } from '../../../../nodes/VideoPlatform/trigger/deliveryKey';
import { canonicalSource, exactSourceAt, payloadJsonOf } from '../../../../nodes/VideoPlatform/trigger/rawJson';
import { anyCodePoint, anyText, jsonSpace } from '../../../helpers/unicode';

/** JSON text of a value, with space of every kind JSON allows before it and between its tokens. */
const spaced = (value: unknown, [lead, indent]: [string, string]) => `${lead}${JSON.stringify(value, null, indent)}`;
const spacing = fc.tuple(jsonSpace, jsonSpace);

/** Every dot path of an object's own members, lists by index. */
function pathsOf(value: unknown, prefix = ''): string[] {
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([name, inner]) => {
		if (name.includes('.') || name === '') return [];
		const path = prefix === '' ? name : `${prefix}.${name}`;
		return [path, ...pathsOf(inner, path)];
	});
}

/** Names and texts from the whole of Unicode, numbers up to ±1e308 (far beyond 2^53). */
const anyJson = fc.jsonValue({ maxDepth: 4, stringUnit: anyCodePoint });
const payload = fc.dictionary(anyText(), anyJson);

describe('exactSourceAt: the raw text of a field, as JSON.parse reads the body', () => {
	it('finds, for every path, text that parses to the value n8n’s parse has there', () => {
		fc.assert(
			fc.property(payload, spacing, (object, space) => {
				const raw = spaced(object, space);
				const parsed = JSON.parse(raw) as IDataObject;
				for (const path of pathsOf(parsed)) {
					expect(JSON.parse(exactSourceAt(raw, path, valueAt(parsed, path))!)).toEqual(valueAt(parsed, path));
				}
			}),
			{ numRuns: 120 },
		);
	});

	it('takes the last of two members with one name, as JSON.parse does', () => {
		const at = (raw: string, path: string, value: unknown = valueAt(JSON.parse(raw) as IDataObject, path)) => exactSourceAt(raw, path, value);
		expect(at('{"id": 1, "id": 12345678901234567891}', 'id')).toBe('12345678901234567891');
		expect(at('{"a": {"b": [0, {"c": "x\\"y"}]}}', 'a.b.1.c')).toBe('"x\\"y"');
		// Where the path leads nowhere, not even a value the payload holds elsewhere.
		expect(at('[1]', '0', 1)).toBeUndefined();
		expect(at('{"a": 1}', 'a.b', 1)).toBeUndefined();
	});
});

describe('exactSourceAt and a Delivery ID Field with empty parts', () => {
	it('skips the empty parts of a path (.a..b.) as the payload is read, so a long number keeps its text', () => {
		const raw = '{"a": {"b": 12345678901234567891}}';
		expect(exactSourceAt(raw, '.a..b.', valueAt(JSON.parse(raw) as IDataObject, '.a..b.'))).toBe('12345678901234567891');
	});

	it('reads a path of dots only (..) as the whole body, as the payload is read, so its long numbers keep their text', () => {
		const raw = ' {"id": 12345678901234567891}';
		expect(exactSourceAt(raw, '..', valueAt(JSON.parse(raw) as IDataObject, '..'))).toBe('{"id": 12345678901234567891}');
	});
});

describe('canonicalSource: the delivery key’s text', () => {
	it('is canonicalJson’s for every value JSON.parse reads exactly, so that keys stay the same', () => {
		fc.assert(
			fc.property(anyJson, spacing, (value, space) => {
				const raw = spaced(value, space);
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

	it('writes strings one way and keeps numbers exactly as sent, negative ones and ones starting with 0 too', () => {
		expect(canonicalSource('{"b": "\\u0041\\/", "a": [true, null, false]}')).toBe('{"a":[true,null,false],"b":"A/"}');
		expect(canonicalSource('[0.10, -0.0, -1.50, 1e2, 9.0]')).toBe('[0.10,-0.0,-1.50,1e2,9.0]');
		fc.assert(
			fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }), fc.bigInt({ min: 1n, max: 1000n }), (id, step) => {
				expect(canonicalSource(`[-${id}]`)).not.toBe(canonicalSource(`[-${id + step}]`));
			}),
		);
	});

	it('uses the raw text only where it holds what n8n parsed', () => {
		expect(exactSourceAt('{"id": 12345678901234567891}', 'id', JSON.parse('12345678901234567891'))).toBe('12345678901234567891');
		expect(exactSourceAt('{"id": 5}', 'id', 6)).toBeUndefined();
		expect(exactSourceAt('not json', 'id', 5)).toBeUndefined();
		expect(exactSourceAt(undefined, 'id', 5)).toBeUndefined();
		// A field n8n's payload does not hold is never read from the raw text, not even a null there.
		expect(exactSourceAt('{"id": null}', 'id', undefined)).toBeUndefined();
	});
});

describe('every reading is one pass: the characters it reads are bounded by the text’s length, however deep it nests', () => {
	/**
	 * The text, counting every character read from it: one per index or charCodeAt, each character
	 * an indexOf passes, each of a slice (itself counted the same way) and of the text turned into
	 * a string (JSON.parse).
	 */
	function counted(text: string, reads = { count: 0 }): { text: string; reads: { count: number } } {
		const proxy = new Proxy(Object(text) as object, {
			get(target, name) {
				if (typeof name === 'string' && /^\d+$/.test(name)) {
					reads.count++;
					return text[Number(name)];
				}
				if (name === 'length') return text.length;
				if (name === 'charCodeAt') return (at: number) => (reads.count++, text.charCodeAt(at));
				if (name === 'indexOf') {
					return (search: string, from = 0) => {
						const found = text.indexOf(search, from);
						reads.count += (found === -1 ? text.length : found + search.length) - from;
						return found;
					};
				}
				if (name === 'slice') return (start?: number, end?: number) => counted(text.slice(start, end), reads).text;
				if (name === 'toString' || name === 'valueOf' || name === Symbol.toPrimitive) return () => ((reads.count += text.length), text);
				const own = Reflect.get(target, name) as unknown;
				return typeof own === 'function' ? (...args: unknown[]) => (own as (...a: unknown[]) => unknown).apply(text, args) : own;
			},
		});
		return { text: proxy as unknown as string, reads };
	}

	const nested = (levels: number, inner: string) => `${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;
	const long = `"${'x'.repeat(20_000)}"`;
	it.each([
		['an id nested 99 levels around a long string', `{"kind":"k","id":${nested(99, long)}}`, 'id'],
		['an id of lists nested 99 levels around a long string', `{"id":${'['.repeat(99)}${long}${']'.repeat(99)}}`, 'id'],
		['the same long string as a flat id', `{"kind":"k","id":${long}}`, 'id'],
		['a long string under a 100-part path', `{"id":${nested(99, long)}}`, ['id', ...Array<string>(99).fill('a')].join('.')],
		['an id of 5,000 members, each a nested object', `{"id":{${Array.from({ length: 5000 }, (_, i) => `"m${i}":${nested(5, '1')}`).join(',')}}}`, 'id'],
	])('the delivery key of %s reads each character a few times', (_label, raw, path) => {
		const value = valueAt(JSON.parse(raw) as IDataObject, path);
		const input = counted(raw);
		const exact = exactSourceAt(input.text, path, value);
		expect(String(exact)).toBe(JSON.stringify(value));
		const key = counted(String(exact));
		expect(canonicalSource(key.text)).toBe(canonicalJson(value));
		expect(input.reads.count).toBeLessThanOrEqual(6 * raw.length);
		expect(key.reads.count).toBeLessThanOrEqual(3 * raw.length);
	});
});

describe('payloadJsonOf: the JSON text the payload is made of', () => {
	it('is an object body as it is, whatever JSON space comes before it, and any other JSON value under body', () => {
		fc.assert(
			fc.property(anyJson, spacing, (value, space) => {
				const raw = spaced(value, space);
				const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
				expect(payloadJsonOf(`\uFEFF${raw}`)).toBe(isObject ? raw : `{"body":${raw}}`);
			}),
			{ numRuns: 200 },
		);
		expect(payloadJsonOf(' \r\n\t{"id": 1}')).toBe(' \r\n\t{"id": 1}');
		expect(payloadJsonOf('not json')).toBeUndefined();
	});
});
