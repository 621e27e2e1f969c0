import { createHash } from 'node:crypto';

import fc from 'fast-check';

import { bodySha256Of, canonicalJson, deliveryKeyOf } from '../../../../nodes/VideoPlatform/trigger/deliveryKey';

const bodyDigest = (text: string) => bodySha256Of(Buffer.from(text)) as string;
const keyById = (payload: object, field = 'id') => deliveryKeyOf(payload as never, field, bodyDigest('{}'));
/** The key of a delivery whose id field holds `value`, as the parsed payload has it (no raw body text). */
const keyOfId = (value: unknown) => keyById({ id: value });

describe('delivery id', () => {
	it('compares objects by value whatever the order of their keys, also nested', () => {
		expect(keyOfId({ room: 1, at: { b: 2, a: [1, { y: 1, x: 0 }] } }).deliveryKey).toBe(
			keyOfId({ at: { a: [1, { x: 0, y: 1 }], b: 2 }, room: 1 }).deliveryKey,
		);
		expect(keyOfId({ room: 1 }).deliveryKey).not.toBe(keyOfId({ room: 2 }).deliveryKey);
		expect(keyOfId({ room: 1 }).deliveryId).not.toContain('[object Object]');
	});

	it('keeps the type of a value: 1 is not "1", true is not "true"', () => {
		expect(keyOfId(1).deliveryKey).not.toBe(keyOfId('1').deliveryKey);
		expect(keyOfId(true).deliveryKey).not.toBe(keyOfId('true').deliveryKey);
	});

	it.each([[undefined], [null], [''], ['   '], [{}], [[]]])('treats %p as no id', (value) => {
		expect(keyOfId(value)).toEqual({ deliveryKey: expect.stringMatching(/^none:/), deliveryKeySource: 'none' });
	});

	it('takes a list with entries as an id, its order counting', () => {
		expect(keyOfId([1, 2])).toEqual({ deliveryKey: expect.stringMatching(/^id:/), deliveryKeySource: 'id', deliveryId: '[1,2]' });
		expect(keyOfId([1, 2]).deliveryKey).not.toBe(keyOfId([2, 1]).deliveryKey);
	});

	it('writes canonical JSON that parses back to the same value', () => {
		const value = { z: 'a"b', a: [null, 1.5, { d: false, c: 'é' }] };
		const text = canonicalJson(value);
		expect(JSON.parse(text)).toEqual(value);
		expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"z"'));
	});
});

describe('delivery key', () => {
	it('is equal for equal ids, different for different ids, whatever else the payload holds', () => {
		const first = keyById({ id: { n: 7, kind: 'x' }, data: 1 });
		expect(first.deliveryKeySource).toBe('id');
		expect(keyById({ id: { kind: 'x', n: 7 }, data: 2 }).deliveryKey).toBe(first.deliveryKey);
		expect(keyById({ id: { kind: 'x', n: 8 } }).deliveryKey).not.toBe(first.deliveryKey);
	});

	it('keeps the keys Drop Redelivered already remembers: the SHA-256 of the canonical JSON', () => {
		const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
		expect(keyById({ id: 'a' }).deliveryKey).toBe(`id:${sha256('"a"')}`);
		expect(keyById({ id: { b: 1, a: [1, null] } }).deliveryKey).toBe(`id:${sha256('{"a":[1,null],"b":1}')}`);
	});

	it('reads a dot path', () => {
		expect(keyById({ meta: { delivery: 'a' } }, 'meta.delivery').deliveryKey).toBe(keyById({ id: 'a' }).deliveryKey);
	});

	it.each([['constructor'], ['__proto__'], ['toString'], ['hasOwnProperty'], ['id.length']])(
		'gives no id for the inherited name %s',
		(field) => {
			const a = keyById({ id: 'a' }, field);
			const b = keyById({ id: 'b' }, field);
			expect([a.deliveryKeySource, b.deliveryKeySource]).toEqual(['none', 'none']);
			expect(a.deliveryKey).not.toBe(b.deliveryKey);
		},
	);

	it("counts a payload's own field named like an inherited one", () => {
		const payload = JSON.parse('{"constructor":"c-1"}');
		expect(keyById(payload, 'constructor').deliveryKeySource).toBe('id');
		expect(keyById(payload, 'constructor').deliveryKey).toBe(keyById({ id: 'c-1' }).deliveryKey);
	});

	it.each([[{}], [{ id: '' }], [{ id: '  ' }], [{ id: null }], [{ id: {} }], [{ id: [] }]])(
		'never gives %p, with the id field set, a key that matches another delivery',
		(payload) => {
			const keys = [keyById(payload), keyById(payload), keyById({ ...payload, other: 1 })];
			expect(keys.map((k) => k.deliveryKeySource)).toEqual(['none', 'none', 'none']);
			expect(new Set(keys.map((k) => k.deliveryKey)).size).toBe(3);
			// ...nor the key of the same bytes delivered without an id field.
			expect(keys.map((k) => k.deliveryKey)).not.toContain(deliveryKeyOf(payload, '', bodyDigest('{}')).deliveryKey);
		},
	);

	it('without an id field, is the raw body digest: equal for equal bytes, different otherwise', () => {
		const body = '{"id":"a","n":1}';
		const key = (text: string) => deliveryKeyOf({}, '', bodyDigest(text));
		expect(key(body)).toEqual({ deliveryKey: key(body).deliveryKey, deliveryKeySource: 'body' });
		expect(key(body).deliveryKey).toBe(`body:${createHash('sha256').update(body).digest('hex')}`);
		// The same JSON value in other bytes is another body.
		expect(key('{"n":1,"id":"a"}').deliveryKey).not.toBe(key(body).deliveryKey);
		expect(key(`${body} `).deliveryKey).not.toBe(key(body).deliveryKey);
	});

	it('reads a Delivery ID Field typed with spaces around it as the field, and one of spaces only as none set', () => {
		expect(deliveryKeyOf({ id: 'a' }, ' id ', bodyDigest('{}'))).toEqual(deliveryKeyOf({ id: 'a' }, 'id', bodyDigest('{}')));
		expect(deliveryKeyOf({ id: 'a' }, '   ', bodyDigest('{}'))).toEqual(deliveryKeyOf({ id: 'a' }, '', bodyDigest('{}')));
	});

	it('without an id field and without a raw body, matches nothing', () => {
		const a = deliveryKeyOf({ id: 'a' }, '', null);
		const b = deliveryKeyOf({ id: 'a' }, '', null);
		expect([a.deliveryKeySource, b.deliveryKeySource]).toEqual(['none', 'none']);
		expect(a.deliveryKey).not.toBe(b.deliveryKey);
	});

	it('never lets an id key equal a body key, even when the id is that digest', () => {
		const text = '{"id":"x"}';
		const digest = bodyDigest(text);
		const byBody = deliveryKeyOf({ id: digest }, '', digest).deliveryKey;
		const byId = deliveryKeyOf({ id: digest }, 'id', digest).deliveryKey;
		expect(byId).not.toBe(byBody);
	});

	it('has a fixed length however big the id or the body', () => {
		const small = keyById({ id: 'a' }).deliveryKey;
		const big = keyById({ id: { list: Array.from({ length: 10_000 }, (_, i) => `id-${i}`) } }).deliveryKey;
		expect(big).toHaveLength(small.length);
		expect(small).toMatch(/^id:[0-9a-f]{64}$/);
		const hugeBody = deliveryKeyOf({}, '', bodyDigest('x'.repeat(1_000_000))).deliveryKey;
		expect(hugeBody).toMatch(/^body:[0-9a-f]{64}$/);
		expect(deliveryKeyOf({}, 'id', null).deliveryKey).toMatch(/^none:[0-9a-f-]{36}$/);
	});
});

describe('body digest', () => {
	it('is the hex SHA-256 of the bytes, the same for a Buffer and its UTF-8 text', () => {
		const text = '{"name":"Biologie 7A – Dienstag"}';
		const expected = createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
		expect(bodySha256Of(Buffer.from(text, 'utf8'))).toBe(expected);
		expect(bodySha256Of(text)).toBe(expected);
	});

	it('is null, not made up, when n8n kept no raw body', () => {
		expect(bodySha256Of(undefined)).toBeNull();
	});

	it('digests an empty body too', () => {
		expect(bodySha256Of(Buffer.alloc(0))).toBe(createHash('sha256').update('').digest('hex'));
	});
});

describe('an id whose numbers the body does not give as sent', () => {
	const bigIds = fc.bigInt({ min: 2n ** 54n, max: 2n ** 64n }).map((id) => [id, id + 1n]).filter(([a, b]) => Number(a) === Number(b));

	it('is keyed by the body, never by the rounded number, and marked inexact', () => {
		fc.assert(
			fc.property(bigIds, fc.constantFrom((n: number) => n, (n: number) => ({ room: 'r', n }), (n: number) => [n]), ([a, b], shape) => {
				const keyOf = (id: bigint) => deliveryKeyOf({ id: shape(Number(id)) } as never, 'id', bodyDigest(`{"id":${id}}`));
				const [first, second] = [keyOf(a), keyOf(b)];
				expect(first).toEqual({ deliveryKey: `body:${bodyDigest(`{"id":${a}}`)}`, deliveryKeySource: 'body', inexact: true });
				expect(second.deliveryKey).not.toBe(first.deliveryKey);
				expect(deliveryKeyOf({ id: Number(a) }, 'id', null)).toMatchObject({ deliveryKeySource: 'none', inexact: true });
			}),
		);
	});

	it('holds a number JSON.parse may have rounded when any number in it is not a whole number within ±2^53', () => {
		const inexact = (value: unknown) => keyOfId(value).inexact === true;
		expect([1, -(2 ** 53) + 1, { a: [0, 'x'] }, 'text', null].map(inexact)).toEqual([false, false, false, false, false]);
		expect([2 ** 53, 1.5, { a: [0, 1e300] }, [[Number.NaN]]].map(inexact)).toEqual([true, true, true, true]);
	});
});
