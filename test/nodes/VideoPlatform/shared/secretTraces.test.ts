import fc from 'fast-check';

import { hideSecret, hideSecretInValue } from '../../../../nodes/VideoPlatform/shared/secretTraces';
import {
	apiKeyWith,
	invisibleCharacter,
	keyWithIs,
	showsRunOf,
	spreadWith,
	unicodeText,
} from '../../../helpers/keyTraces';

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
		const text = fc.oneof(unicodeText(20), fc.constant(KEY), unicodeText(20).map((s) => `${s}${KEY.toUpperCase()}${s}`));
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

/** Per-character case changes an echo may make, Turkish ones (i to İ, I to ı) included. */
const CASINGS: Array<[string, (text: string) => string]> = [
	['as sent', (text) => text],
	['in upper case', (text) => text.toUpperCase()],
	['in lower case', (text) => text.toLowerCase()],
	['in Turkish upper case', (text) => text.toLocaleUpperCase('tr')],
	['in Turkish lower case', (text) => text.toLocaleLowerCase('tr')],
];

/** Invisible characters to slip between the key's characters, each gap 1 or 2 of them. */
const gapsOfInvisibles = fc.array(fc.string({ unit: invisibleCharacter, minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 12 });

/** Two visible characters that no key holds: what the redaction hides must end at them. */
const around = (before: string, middle: string, after: string) => `${before}«${middle}»${after}`;

describe('hideSecret reads the text as a person sees it', () => {
	it.each([
		['U+E0100 between its characters (the issue\'s example)', spreadWith(KEY, ['\u{E0100}'])],
		['U+FFF0, U+1BCA0 and U+1D173 between its characters', spreadWith(KEY, ['\uFFF0', '\u{1BCA0}', '\u{1D173}'])],
		['a byte-order mark inside', `${KEY.slice(0, 6)}\uFEFF${KEY.slice(6)}`],
		['zero-width spaces inside, percent-encoded as UTF-8', encodeURIComponent(spreadWith(KEY, ['\u200b']))],
		['variation selectors inside, as HTML entities', spreadWith(KEY, ['&#917760;'])],
		['variation selectors inside, as JSON surrogate escapes', spreadWith(KEY, ['\\udb40\\udd00'])],
	])('hides the key with %s', (_label, echo) => {
		expect(hideSecret(`invalid key ${echo}.`, KEY, MARKER)).toBe(`invalid key ${MARKER}.`);
	});

	it('hides a key inside an ANSI sequence, which a terminal hides but a browser shows', () => {
		const digits = '12345678901234';
		const said = `code \u001b[${spreadWith(digits, ['\u200b'])}m end`;
		expect(hideSecret(said, digits, MARKER)).toBe(`code \u001b[${MARKER}m end`);
	});

	it('hides the echo of a secret that holds an invisible character, shown without it', () => {
		expect(hideSecret(`invalid ${KEY}.`, spreadWith(KEY, ['\u{E0100}']), MARKER)).toBe(`invalid ${MARKER}.`);
	});

	it('hides a key whose escaped echo has an escaped ESC after each character, which a browser shows', () => {
		const bytes = (text: string) => [...Buffer.from(text)].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
		for (const escaped of [bytes, (text: string) => JSON.stringify(text).slice(1, -1)]) {
			expect(hideSecret(`invalid ${escaped(spreadWith(KEY, ['\u001b']))}.`, KEY, MARKER)).toBe(`invalid ${MARKER}.`);
		}
	});

	it('hides an upper-cased key in a German message, and a Turkish upper-cased one, and keeps every other character', () => {
		const german = `Ungültiger Schlüssel für Straße: ${KEY.toUpperCase()} (ŉ, ﬁ, ǰ)`;
		expect(hideSecret(german, KEY, MARKER)).toBe(`Ungültiger Schlüssel für Straße: ${MARKER} (ŉ, ﬁ, ǰ)`);
		const turkish = `İSTANBUL: geçersiz anahtar ${KEY.toLocaleUpperCase('tr')} ı`;
		expect(hideSecret(turkish, KEY, MARKER)).toBe(`İSTANBUL: geçersiz anahtar ${MARKER} ı`);
	});

	it.each(CASINGS)(
		"hides the key %s with any of Unicode's default-ignorable characters inside, in full-Unicode text, and nothing else",
		(_label, casing) => {
			fc.assert(
				fc.property(fc.oneof(apiKeyWith(8, 64), keyWithIs), gapsOfInvisibles, unicodeText(40), unicodeText(40), (key, gaps, before, after) => {
					fc.pre(!showsRunOf(before, key) && !showsRunOf(after, key));
					const echo = casing(spreadWith(key, gaps));
					expect(hideSecret(around(before, echo, after), key, MARKER)).toBe(around(before, MARKER, after));
				}),
				{ numRuns: 120 },
			);
		},
	);

	const codePoints = (text: string) => [...text].map((c) => c.codePointAt(0) ?? 0);
	const ENCODINGS: Array<[string, (text: string) => string]> = [
		['percent-encoded as UTF-8', encodeURIComponent],
		['as decimal HTML entities', (text) => codePoints(text).map((code) => `&#${code};`).join('')],
		['as hexadecimal HTML entities', (text) => codePoints(text).map((code) => `&#x${code.toString(16)};`).join('')],
		['as JSON \\u escapes (surrogate pairs for the rest)', (text) => [...Array(text.length).keys()].map((at) => `\\u${text.charCodeAt(at).toString(16).padStart(4, '0')}`).join('')],
		['as \\u{...} escapes', (text) => codePoints(text).map((code) => `\\u{${code.toString(16)}}`).join('')],
		['as \\x escapes of its UTF-8 bytes', (text) => [...Buffer.from(text)].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('')],
	];

	it.each(ENCODINGS)('hides the key with invisible characters inside, %s', (_label, encode) => {
		fc.assert(
			fc.property(apiKeyWith(8, 40), gapsOfInvisibles, unicodeText(30), unicodeText(30), (key, gaps, before, after) => {
				fc.pre(!showsRunOf(before, key) && !showsRunOf(after, key) && !/[%\\&]/.test(before + after));
				const echo = encode(spreadWith(key, gaps));
				expect(hideSecret(around(before, echo, after), key, MARKER)).toBe(around(before, MARKER, after));
			}),
			{ numRuns: 80 },
		);
	});

	it.each(CASINGS)('hides the key in a whole message cased %s, wherever the casing changes lengths', (_label, casing) => {
		fc.assert(
			fc.property(fc.oneof(apiKeyWith(8, 64), keyWithIs), unicodeText(40), unicodeText(40), (key, before, after) => {
				const said = casing(`${before} ${key} ${after}`);
				fc.pre(!showsRunOf(casing(before), key) && !showsRunOf(casing(after), key));
				const shown = hideSecret(said, key, MARKER);
				expect(shown).toContain(MARKER);
				expect(showsRunOf(shown, key)).toBe(false);
			}),
			{ numRuns: 120 },
		);
	});

	it('changes nothing in a full-Unicode text in which no one reads a run of the key', () => {
		fc.assert(
			fc.property(fc.oneof(apiKeyWith(8, 64), keyWithIs), unicodeText(200), (key, text) => {
				fc.pre(!showsRunOf(text, key) && !/[%\\&]/.test(text));
				expect(hideSecret(text, key, MARKER)).toBe(text);
			}),
			{ numRuns: 300 },
		);
	});
});

describe('hideSecret takes time linear in the text', () => {
	/** Everything the readings undo or skip, near misses of the key and an echo of it, over and over. */
	const piece = [
		`Straße İı ${KEY.slice(0, 7)}\u200b\u{E0100}\uFEFF ${KEY.slice(2, 9).toLocaleUpperCase('tr')} ${spreadWith(KEY, ['\u{E0100}'])}`,
		'%41%E2%80%8B%F0 %2541 \\u0041\\xE2\\x80 \\u{E0100} &#917760;&amp;&#x1b; \u001b[31m\u001b[ \u001b',
		`Bearer\u200b 漢字 ${Buffer.from(KEY).toString('base64').slice(0, 9)} `,
	].join('');
	const textOf = (length: number) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length);

	/** The fastest of a few runs: the least disturbed by whatever else the machine does. */
	function fastestRun(text: string): number {
		let fastest = Infinity;
		for (let run = 0; run < 3; run++) {
			const start = process.hrtime.bigint();
			hideSecret(text, KEY, MARKER);
			fastest = Math.min(fastest, Number(process.hrtime.bigint() - start));
		}
		return fastest;
	}

	it('a text 8 times as long takes less than 24 times as long (a reading quadratic in it: 64 times)', () => {
		const short = textOf(128 * 1024);
		const long = textOf(1024 * 1024);
		expect(hideSecret(long, KEY, MARKER).split(MARKER).length - 1).toBeGreaterThan(1000);
		expect(fastestRun(long) / fastestRun(short)).toBeLessThan(24);
	});
});
