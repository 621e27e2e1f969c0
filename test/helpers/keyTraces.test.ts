import { showsRunOf } from './keyTraces';

describe('showsRunOf: whether a text lets a person read part of the key', () => {
	const key = 'Ab cd ef gh 1234';

	it('sees a run of 8 characters as it is, percent-encoded, form-encoded (a "+" for a space) or as HTML entities', () => {
		expect(showsRunOf(`x ${key.slice(3, 11)} y`, key)).toBe(true);
		expect(showsRunOf(`?k=${encodeURIComponent(key)}`, key)).toBe(true);
		expect(showsRunOf(`?k=${encodeURIComponent(key).replace(/%20/g, '+')}`, key)).toBe(true);
		expect(showsRunOf([...key].map((c) => `&#${c.codePointAt(0)};`).join(''), key)).toBe(true);
	});

	it('sees no run of 7, nor a key whose spaces became other characters', () => {
		expect(showsRunOf(`[${key.slice(3, 10)}]`, key)).toBe(false);
		expect(showsRunOf(key.replace(/ /g, '-'), key)).toBe(false);
	});
});
