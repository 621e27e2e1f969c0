import fc from 'fast-check';

import { hideSecret, hideSecretInValue } from '../../../../nodes/VideoPlatform/shared/secretTraces';

const KEY = ['sk', 'live', '4f9a2c7e1b8d'].join('_');
const MARKER = '[removed]';

/** What hideSecretInValue did before it stopped copying: a fresh copy of every list and object. */
function copyingReference(value: unknown): unknown {
	if (typeof value === 'string') return hideSecret(value, KEY, MARKER);
	if (typeof value === 'number') return hideSecret(String(value), KEY, MARKER) === String(value) ? value : MARKER;
	if (Array.isArray(value)) return value.map(copyingReference);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(Object.entries(value).map(([name, inner]) => [hideSecret(name, KEY, MARKER), copyingReference(inner)]));
}

describe('hideSecret on short texts', () => {
	it('hides a text that is exactly one run of the key, 8 characters, or a short key whole', () => {
		expect(hideSecret(KEY.slice(3, 11), KEY, MARKER)).toBe(MARKER);
		expect(hideSecret(KEY.slice(3, 11).toUpperCase(), KEY, MARKER)).toBe(MARKER);
		expect(hideSecret('ab%63d', 'abcd', MARKER)).toBe(MARKER);
		expect(hideSecret('abcd', 'abcd', MARKER)).toBe(MARKER);
	});

	it('shows a text shorter than a run as it is', () => {
		expect(hideSecret(KEY.slice(3, 10), KEY, MARKER)).toBe(KEY.slice(3, 10));
		expect(hideSecret('abc', 'abcd', MARKER)).toBe('abc');
	});
});

describe('hideSecretInValue', () => {
	it('returns a value with nothing to hide as it is, not a copy', () => {
		const answer = { id: 'room_1', name: 'Biology', tags: ['a', 'b'], owner: { id: 7, links: [{ href: '/x' }] } };
		expect(hideSecretInValue(answer, KEY, MARKER)).toBe(answer);
	});

	it('copies only the path to a hidden trace; the input is not changed and untouched parts are shared', () => {
		const untouched = { id: 'room_1' };
		const answer = { room: untouched, echo: { headers: [`Bearer ${KEY}`] } };
		const shown = hideSecretInValue(answer, KEY, MARKER) as typeof answer;
		expect(shown).toEqual({ room: { id: 'room_1' }, echo: { headers: [`Bearer ${MARKER}`] } });
		expect(shown).not.toBe(answer);
		expect(shown.room).toBe(untouched);
		expect(answer.echo.headers[0]).toBe(`Bearer ${KEY}`);
	});

	it('hides the secret in a field name', () => {
		expect(hideSecretInValue({ [KEY]: 1 }, KEY, MARKER)).toEqual({ [MARKER]: 1 });
	});

	it('gives what the copying version gave, for any JSON value with or without the secret in it', () => {
		const text = fc.oneof(fc.string(), fc.constant(KEY), fc.string().map((s) => `${s}${KEY.toUpperCase()}${s}`));
		const json = fc.letrec((tie) => ({
			value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value')), fc.dictionary(text, tie('value'))),
		})).value;
		fc.assert(
			fc.property(json, (value) => {
				const before = JSON.stringify(value);
				expect(hideSecretInValue(value, KEY, MARKER)).toEqual(copyingReference(value));
				expect(JSON.stringify(value)).toBe(before);
			}),
		);
	});
});
