import fc from 'fast-check';

import {
	hideSecret,
	hideSecretInValue,
	KEY_REMOVED_MARKER,
	platformMessage,
	quotable,
	redact,
	stripControlCharacters,
	withoutMarkup,
} from '../../../../nodes/VideoPlatform/shared/secretTraces';
import {
	apiKeyWith,
	invisibleCharacter,
	keyWithIs,
	showsRunOf,
	spreadWith,
	unicodeText,
} from '../../../helpers/keyTraces';
import { ANGLE_BRACKETS, MARKUP_EXAMPLES, outsideTextWithMarkup } from '../../../helpers/outsideText';

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

describe('hideSecret with secrets and echoes at the edges', () => {
	it('hides nothing for a secret of invisible characters only, which no echo can show', () => {
		// '稴.¢' is a text whose rolling hash comes to 0, the hash of the empty text such a secret leaves.
		for (const text of ['any text at all, 12345678', 'a NUL \u0000 inside', '\u7a34.\u00a2']) {
			expect(hideSecret(text, '\u200b\u00ad', MARKER)).toBe(text);
		}
	});

	it('shows a text whose 8 characters only hash like a run of the key: each match of the hash is compared as text', () => {
		// k-1 and _+131 keep the polynomial hash (base 131) of "sk_live_".
		const lookalike = `s${String.fromCharCode('k'.charCodeAt(0) - 1, '_'.charCodeAt(0) + 131)}live_`;
		expect(hideSecret(`name: ${lookalike}`, KEY, MARKER)).toBe(`name: ${lookalike}`);
	});

	it('gives an echo of the key and its base64 right after it one marker: traces that touch share it', () => {
		// 18 bytes: base64 with no padding, every digit the key's own.
		expect(hideSecret(`bad ${KEY}${Buffer.from(KEY.slice(0, 18)).toString('base64')} end`, KEY, MARKER)).toBe(`bad ${MARKER} end`);
	});

	it('gives two runs of the key that touch as a person reads the text one marker, with the invisible character or ANSI sequence between them', () => {
		// Two different runs ("sk_live_" and "2c7e1b8d"): where they meet, no run of the key is read.
		for (const between of ['\u200b', '\u001b[31m']) {
			expect(hideSecret(`bad ${KEY.slice(0, 8)}${between}${KEY.slice(12)} end`, KEY, MARKER)).toBe(`bad ${MARKER} end`);
		}
	});
});

describe('hideSecret in base64', () => {
	const base64 = (...parts: Buffer[]) => Buffer.concat(parts).toString('base64');

	it('shows base64 of the first or last 7 bytes of the key as it is, after zero bytes or padded: digits that share their bits with other bytes are not the key', () => {
		// 7 bytes are fewer than a run (8 characters). Their base64 holds at most 9 digits made of their bits alone,
		// fewer than the 10 a base64 run needs; the digits at the key's edges carry zero or padding bits too.
		// A key no other test uses: its runs are made here, not taken from the cache another test filled.
		const key = 'rk_edges_7c1e9b2a4d6f';
		const bytes = Buffer.from(key);
		for (const cut of [bytes.subarray(0, 7), bytes.subarray(-7)]) {
			for (const zeros of [0, 1, 2]) {
				const text = `echo ${base64(Buffer.alloc(zeros), cut)} end`;
				expect(hideSecret(text, key, MARKER)).toBe(text);
			}
		}
	});

	it('hides a secret of fewer than 8 characters but 8 or more UTF-8 bytes in base64 too: base64 runs are counted in bytes', () => {
		const password = 'Äöüßéñ';
		expect(hideSecret(`Authorization: Basic ${base64(Buffer.from(`user:${password}`))}`, password, MARKER)).toContain(MARKER);
		expect(hideSecret(base64(Buffer.from(password)), password, MARKER)).toBe(MARKER);
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
		// Numbers as big ids come: whole numbers past 2^53, which JavaScript rounds, either sign.
		const beyond2To53 = fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }).chain((big) => fc.constantFrom(Number(big), -Number(big)));
		const json = fc.letrec((tie) => ({
			value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), beyond2To53, fc.double(), fc.boolean(), fc.constant(null), fc.array(tie('value')), fc.dictionary(text, tie('value'))),
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

	it('hides an echo with an unended ANSI sequence inside, and keeps the text after the key, which a browser shows', () => {
		// A terminal hides what follows ESC [ up to a letter; the key ends before that, and so does the marker.
		const key = 'abcdefgh[/12';
		expect(hideSecret(`bad key abcdefgh\u001b[/12 — try again`, key, MARKER)).toBe(`bad key ${MARKER} — try again`);
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

	it('folds letters beyond the BMP too (Deseret, Adlam), and tells other characters there apart', () => {
		expect(redact('ABCD\u{10400}EFGH', 'abcd\u{10428}efgh')).toBe('[redacted]');
		expect(redact('abcd\u{10400}efgh', 'ABCD\u{10428}EFGH')).toBe('[redacted]');
		expect(redact('x\u{1E900}\u{1E901}abcdefgh', '\u{1E922}\u{1E923}ABCDEFGH')).toBe('x[redacted]');
		expect(redact('abcd\u{1F600}efgh', 'abcd\u{1F601}efgh')).toBe('abcd\u{1F600}efgh');
	});

	it('folds a text without a single ASCII character letter by letter too: İ keeps its one place, long s is s and Kelvin\'s K is k', () => {
		expect(hideSecret('İİ\u00a0ÄÖÜÉÑÇÅØ', 'äöüéñçåø', MARKER)).toBe(`İİ\u00a0${MARKER}`);
		expect(hideSecret('\u017f\u212a\u017f\u212a\u017f\u212a\u017f\u212a', 'sksksksk', MARKER)).toBe(MARKER);
	});

	it('folds a letter beyond the BMP right after a lone high surrogate (half an emoji, as a cut text leaves it)', () => {
		expect(redact('x\ud83d\u{10400}EFGHIJK', '\u{10428}efghijk')).toBe('x\ud83d[redacted]');
	});

	it('folds a letter only to one of its own length: ß is not s, ŉ is not ʼ, so a text that differs from the key there shows', () => {
		expect(redact('abcdßefghijk', 'abcdsefghijk')).toBe('abcdßefghijk');
		expect(redact('abcdŉefghijk', 'abcdʼefghijk')).toBe('abcdŉefghijk');
		expect(redact('ABCDSEFGHIJK', 'abcdſefghijk')).toBe('[redacted]');
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

describe('text from outside the node, made safe to show', () => {
	const KEY = 'sk_live_secret_0123456789';

	describe('platformMessage', () => {
		it.each([
			[{ message: 'name is too long' }, 'name is too long'],
			[{ error: 'bad type' }, 'bad type'],
			[{ error: { message: 'nested' } }, 'nested'],
			[{ detail: 'problem+json detail' }, 'problem+json detail'],
			['{"message":"from text"}', 'from text'],
			['plain text error', 'plain text error'],
			[{ code: 7 }, '{"code":7}'],
			[{ message: '   ', error: '\t', detail: 'the words after blank fields' }, 'the words after blank fields'],
			['null', ''],
			['42', ''],
			['true', ''],
			['', ''],
			[undefined, ''],
		])('finds the words in %p', (body, expected) => {
			expect(platformMessage(body, KEY)).toBe(expected);
		});

		it('redacts before it cuts, so no part of the key survives the cut', () => {
			const said = `${'x'.repeat(290)} ${KEY} tail`;
			const quoted = platformMessage({ message: said }, KEY);
			expect(quoted).toBe(`${'x'.repeat(290)} [redacted…`);
			expect(quoted).not.toContain(KEY.slice(0, 8));
		});

		it('finds the key behind an escape sequence, also where the text is cut', () => {
			const said = `${'x'.repeat(290)}${KEY.slice(0, 6)}\u001b[m${KEY.slice(6)}`;
			const quoted = platformMessage({ message: said }, KEY);
			expect(quoted).toBe(`${'x'.repeat(290)}[redacted]`);
		});

		it('strips line breaks and ANSI escapes that could fake log lines or colours', () => {
			const said = 'bad name\r\nINFO forged line\u001b[31m red\u001b[0m\ttab\u0007';
			expect(platformMessage({ message: said }, KEY)).toBe('bad name INFO forged line red tab');
		});
	});

	describe('redact', () => {
		it('removes the key, and anything sent as a Bearer token', () => {
			expect(redact(`key=${KEY}; Authorization: Bearer other-token`, KEY)).toBe(
				'key=[redacted]; Authorization: Bearer [redacted]',
			);
			expect(redact('no secret here', '')).toBe('no secret here');
		});

		it('removes a Bearer token after control or invisible characters, and with them inside "Bearer", in its first pass', () => {
			const control = fc.integer({ min: 0, max: 0x9f }).filter((code) => code < 0x20 || code >= 0x7f).map((code) => String.fromCharCode(code));
			const separator = fc.string({ unit: fc.oneof(control, invisibleCharacter, fc.constantFrom(' ', '\t')), minLength: 1, maxLength: 4 });
			const token = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 40 });
			fc.assert(
				fc.property(separator, token, fc.array(invisibleCharacter, { maxLength: 5 }), (between, sent, inWord) => {
					fc.pre(!sent.startsWith('[redacted]'));
					const word = inWord.length === 0 ? 'Bearer' : spreadWith('Bearer', inWord);
					expect(redact(`Authorization: ${word}${between}${sent} end`, KEY)).toBe('Authorization: Bearer [redacted] end');
				}),
				{ numRuns: 300 },
			);
		});

		it('removes the key in another letter case, and as JSON escapes it inside a string', () => {
			expect(redact(`host ${KEY.toLowerCase().toUpperCase()}.evil.example`, KEY)).toBe('host [redacted].evil.example');
			const quoteKey = 'abc"def\\_123456789';
			expect(platformMessage({ code: 7, echo: quoteKey }, quoteKey)).toBe('{"code":7,"echo":"[redacted]"}');
		});
	});

	describe('redact: every form in which the key may be echoed', () => {
		const key = 'sk_Live_"q"\\/<t>{x}% 9~';
		const percentEncoded = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
		const jsonUnicode = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

		it.each([
			['as sent', key],
			['in upper case', key.toUpperCase()],
			['as encodeURIComponent writes it', encodeURIComponent(key)],
			['percent-encoded with lower-case hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())],
			['with every character percent-encoded', percentEncoded(key)],
			['with every character percent-encoded, upper-case hex', percentEncoded(key).toUpperCase()],
			['form-encoded, a space as +', encodeURIComponent(key).replace(/%20/g, '+')],
			['JSON-escaped', JSON.stringify(key).slice(1, -1)],
			['JSON-escaped with escaped slashes, as PHP writes it', JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/')],
			['JSON-escaped as \\u sequences', jsonUnicode(key)],
			['JSON-escaped as upper-case \\u sequences', jsonUnicode(key).toUpperCase()],
		])('removes the key %s', (_label, form) => {
			expect(redact(`before ${form} after`, key)).toBe('before [redacted] after');
		});

		it('finds a key that holds what reads as another escape, JSON- or percent-escaped (found by the properties below)', () => {
			const odd = '!!"!%00!';
			expect(redact(`{"a":${JSON.stringify(odd)}}`, odd)).toBe('{"a":"[redacted]"}');
			expect(redact(`?k=${encodeURIComponent(odd)}`, odd)).toBe('?k=[redacted]');
		});

		it('reads an escape of a number beyond Unicode as no character, and still checks and shows the text', () => {
			expect(redact('x &#9999999; \\u{FFFFFF} y', 'sk_live_0123456789')).toBe('x &#9999999; \\u{FFFFFF} y');
			expect(redact('&#9999999;sk_live_0123456789', 'sk_live_0123456789')).toBe('&#9999999;[redacted]');
		});

		it('hides a key with percent-encoded control bytes that are no UTF-8 slipped in (%85%80)', () => {
			expect(redact('abcdefg%85%80hijklmn', 'abcdefghijklmn')).toBe('[redacted]');
		});

		it('hides a key with a percent-encoded letter followed by stray UTF-8 continuation bytes, which read as control characters', () => {
			expect(redact('abcdefg%41%80%80hijklmn', 'abcdefgAhijklmn')).toBe('[redacted]');
			expect(redact('abcdefg%41%80%80%80hijklmn', 'abcdefgAhijklmn')).toBe('[redacted]');
		});

		it('reads percent-encoded UTF-8 as decoders do: a byte that does not continue a character, an overlong form and a number beyond Unicode are bytes, not the letter they would spell', () => {
			expect(redact('abcdefg%C3%41hijklmn', 'abcdefgAhijklmn')).toBe('abcdefg%C3[redacted]');
			expect(redact('abcdefg%E0%81%81hijklmn', 'abcdefgAhijklmn')).toBe('abcdefg%E0%81%81hijklmn');
			expect(redact('x%F4%90%80%80y', 'sk_live_0123456789')).toBe('x%F4%90%80%80y');
		});

		it('hides a key with the smallest two-byte UTF-8 character, an invisible control (%C2%80), slipped in', () => {
			expect(redact('abcdefg%C2%80hijklmn', 'abcdefghijklmn')).toBe('[redacted]');
		});

		it('hides a key with a four-byte character written as byte escapes, up to the last code point (lead byte F4)', () => {
			expect(redact('abcd\\xF4\\x80\\x80\\x80efgh', 'abcd\u{100000}efgh')).toBe('[redacted]');
			expect(redact('abcd\\xF4\\x8F\\xBF\\xBFefgh', 'abcd\u{10FFFF}efgh')).toBe('[redacted]');
		});

		it('hides a key with the last two-byte and the first three-byte UTF-8 character written as byte escapes (lead bytes DF and E0)', () => {
			expect(redact('abcd\\xDF\\xBFefgh', 'abcd\u07ffefgh')).toBe('[redacted]');
			expect(redact('abcd\\xE0\\xA0\\x80efgh', 'abcd\u0800efgh')).toBe('[redacted]');
		});

		it('reads an escape of the last code point, U+10FFFF, as that character', () => {
			expect(redact('abcd\\u{10FFFF}efgh', 'abcd\u{10ffff}efgh')).toBe('[redacted]');
			expect(redact('abcd&#x10FFFF;efgh', 'abcd\u{10ffff}efgh')).toBe('[redacted]');
		});

		it('reads byte escapes that spell no character (a surrogate, a lead byte beyond F4) byte by byte, as Latin-1 text, and hides a key echoed that way', () => {
			expect(redact('abcd\\xED\\xA0\\x80efgh', 'abcd\u00ed\u00a0\u0080efgh')).toBe('[redacted]');
			expect(redact('abcd\\xED\\xBF\\xBFefgh', 'abcd\u00ed\u00bf\u00bfefgh')).toBe('[redacted]');
			expect(redact('abcd\\xF9\\x80\\x80\\x80efgh', 'abcd\u00f9efgh')).toBe('[redacted]');
		});

		it('hides a key with a JSON escape of an invisible character (\\n) or an upper-case byte escape (\\X41) in it', () => {
			expect(redact('abcdefg\\nhijklmn', 'abcdefghijklmn')).toBe('[redacted]');
			expect(redact('abcdefg\\X41hijklmn', 'abcdefgAhijklmn')).toBe('[redacted]');
		});

		it('reads a braced escape only right after \\u, not a brace further on', () => {
			expect(redact('abcdefg\\uZ{41}hijklmn', 'abcdefgAhijklmn')).toBe('abcdefg\\uZ{41}hijklmn');
		});

		it('reads HTML entities as browsers do: a named one in any letter case and only with its semicolon, a numbered one also without', () => {
			const key = 'abcdefg_hijklmn';
			expect(redact('abcdefg&lowbar;hijklmn', key)).toBe('[redacted]');
			expect(redact('abcdefg&LOWBAR;hijklmn', key)).toBe('[redacted]');
			expect(redact('abcdefg&lowbar-hijklmn', key)).toBe('abcdefg&lowbar-hijklmn');
			expect(redact('abcdefg&#95hijklmn', key)).toBe('[redacted]');
		});

		// HTML's own names (WHATWG's named character references) for the ASCII a key may hold, as a page escapes them.
		it.each(
			'amp & lt < gt > quot " apos \' sol / bsol \\ colon : semi ; equals = plus + lowbar _ period . comma , excl ! quest ? num # dollar $ percnt % ast * midast * lpar ( rpar ) commat @ lsqb [ rsqb ] lbrack [ rbrack ] lcub { rcub } lbrace { rbrace } verbar | vert | hat ^ grave ` tilde ~ hyphen - dash - nbsp \u00a0'
				.split(' ')
				.reduce<Array<[string, string]>>((pairs, word, at, words) => (at % 2 === 0 ? [...pairs, [word, words[at + 1]]] : pairs), []),
		)('reads the HTML entity &%s; as the %s a key holds, and hides the key written with it', (name, character) => {
			const shown = character === '\u00a0' ? ' ' : character;
			expect(redact(`abcdefg&${name};hijklmn`, `abcdefg${shown}hijklmn`)).toBe('[redacted]');
		});

		it('finds even a one-character key in an encoded form', () => {
			expect(redact('x%61y x\\u0041y', 'a')).toBe('x[redacted]y x[redacted]y');
		});
	});

	describe('stripControlCharacters', () => {
		it('drops an ESC with the one character after it, and shows the text after them', () => {
			expect(stripControlCharacters('a\u001bXbc')).toBe('abc');
			expect(stripControlCharacters('ab\u001b')).toBe('ab');
		});

		it('turns DEL, the C1 controls and the line and paragraph separators into spaces, and keeps a no-break space', () => {
			expect(stripControlCharacters('a\u007fb\u0080c\u009fd\u2028e\u2029f')).toBe('a b c d e f');
			expect(stripControlCharacters('a\u00a0b \u007e')).toBe('a\u00a0b ~');
		});

		it('ends a control sequence at its final character, @ to ~, and not at a parameter such as ? or a digit', () => {
			expect(stripControlCharacters('a\u001b[1@b')).toBe('ab');
			expect(stripControlCharacters('a\u001b[2~b')).toBe('ab');
			expect(stripControlCharacters('a\u001b[?25lb')).toBe('ab');
			expect(stripControlCharacters('a\u001b[31')).toBe('a');
		});

		it('hides a key split by an escaped ANSI sequence, as a terminal shows the text once decoded (%1B, \\u001b)', () => {
			expect(redact('abcdefg%1B[31mhijklmn', 'abcdefghijklmn')).toBe('[redacted]');
			expect(redact('abcdefg\\u001b[31mhijklmn', 'abcdefghijklmn')).toBe('[redacted]');
		});

		it('reads a control sequence on past a character beyond ~ (DEL, é), as terminals do, and hides a key it splits', () => {
			expect(redact('abcdefg\u001b[1\u00e9mhijklmn', 'abcdefghijklmn')).toBe('[redacted]');
			expect(redact('abcdefg\u001b[1\u007fmhijklmn', 'abcdefghijklmn')).toBe('[redacted]');
		});
	});

	describe('quotable', () => {
		it('cuts long text and marks the cut', () => {
			expect(quotable('abcdef', '', 3)).toBe('abc…');
			expect(stripControlCharacters('  a\n\nb  ')).toBe('a b');
		});

		it('shows markup as text: the angle brackets become look-alikes, everything else stays', () => {
			expect(platformMessage({ message: `Calendar "${MARKUP_EXAMPLES[1]}" is invalid` }, KEY)).toBe(
				'Calendar "\u2039img src="https://evil.example/track.png"\u203A" is invalid',
			);
			expect(withoutMarkup(`<a href='x' title="y">&lt;</a>`)).toBe(`\u2039a href='x' title="y"\u203A&lt;\u2039/a\u203A`);
		});

		it('leaves no angle bracket in any text from outside, full Unicode, and changes nothing else', () => {
			fc.assert(
				fc.property(outsideTextWithMarkup, fc.integer({ min: 1, max: 400 }), (text, maxLength) => {
					const shown = quotable(text, KEY, maxLength);
					expect(shown).not.toMatch(ANGLE_BRACKETS);
					const expected = stripControlCharacters(text).replace(/</g, '\u2039').replace(/>/g, '\u203A');
					expect(shown).toBe(expected.length > maxLength ? `${expected.slice(0, maxLength)}…` : expected);
				}),
				{ numRuns: 500 },
			);
		});

		it('removes the key before the brackets change, so a key with < or > in it is still found', () => {
			const key = 'sk_<live>_0123456789';
			expect(quotable(`bad key ${key}`, key)).toBe('bad key [redacted]');
		});
	});

	/** Whether the text holds 8 consecutive characters of the key, in any letter case. */
	function holdsRunOf(text: string, key: string): boolean {
		const folded = text.toLowerCase();
		const lowerKey = key.toLowerCase();
		for (let i = 0; i + 8 <= lowerKey.length; i++) if (folded.includes(lowerKey.slice(i, i + 8))) return true;
		return false;
	}

	const percentAll = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
	const unicodeEscapes = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
	const htmlDecimal = (text: string) => [...text].map((c) => `&#${c.charCodeAt(0)};`).join('');
	const htmlHex = (text: string) => [...text].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('');
	const withInvisible = (text: string) => [...text].join('\u200b');

	/** Every form of a run of the key the node must not show, and how to undo it to check. */
	const FORMS: Array<[string, (run: string) => string]> = [
		['as it is', (run) => run],
		['in upper case', (run) => run.toUpperCase()],
		['as encodeURIComponent writes it', encodeURIComponent],
		['with every byte percent-encoded', percentAll],
		['percent-encoded twice', (run) => encodeURIComponent(percentAll(run))],
		['JSON-escaped', (run) => JSON.stringify(run).slice(1, -1)],
		['as \\u escapes', unicodeEscapes],
		['as decimal HTML entities', htmlDecimal],
		['as hexadecimal HTML entities', htmlHex],
		['with zero-width spaces inside', withInvisible],
		['with soft hyphens inside', (run) => [...run].join('\u00ad')],
		['in base64', (run) => Buffer.from(run).toString('base64')],
		['in base64 after a Basic user name', (run) => Buffer.from(`user:${run}`).toString('base64')],
		['in base64url', (run) => Buffer.from(`xy${run}`).toString('base64url')],
	];

	describe('redact: properties over generated keys and texts', () => {
		it.each(FORMS)('leaves no run of 8 characters of the key %s, wherever it is cut from the key', (_label, encode) => {
			fc.assert(
				fc.property(apiKeyWith(8, 300), fc.nat(), fc.nat(), unicodeText(60), unicodeText(60), (key, a, b, before, after) => {
					const start = a % (key.length - 7);
					const run = key.slice(start, start + 8 + (b % (key.length - start - 7)));
					fc.pre(!holdsRunOf(`${before} ${after}`, key));
					const shown = redact(`${before} ${encode(run)} ${after}`, key);
					expect(shown).not.toContain(encode(run));
					expect(shown).toContain('[redacted]');
					expect(holdsRunOf(shown.replace(/\u200b|\u00ad/g, ''), key)).toBe(false);
				}),
				{ numRuns: 150 },
			);
		});

		it('never throws, and returns text, whatever the text and the secret', () => {
			fc.assert(
				fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 400 }), (text, secret) => {
					expect(typeof redact(text, secret)).toBe('string');
					expect(typeof quotable(text, secret)).toBe('string');
				}),
				{ numRuns: 500 },
			);
		});

		it('shows a notice, never the text, where it cannot check a text', () => {
			const unreadable = { toString: () => { throw new Error('no text'); } };
			expect(redact(`the key is ${KEY}`, unreadable as unknown as string)).toBe(
				'[redacted: this text could not be checked for the key]',
			);
		});

		it('never throws on values that are not text at all', () => {
			for (const odd of [undefined, null, 12, {}, Symbol('s')]) {
				expect(typeof redact(odd as unknown as string, KEY)).toBe('string');
				expect(typeof redact('text', odd as unknown as string)).toBe('string');
			}
		});

		/** Web addresses with query and fragment, their non-ASCII characters percent-encoded as browsers send them. */
		const webAddress = fc.webUrl({ withQueryParameters: true, withFragments: true, size: 'medium' });

		const formEncoded = (key: string) => encodeURIComponent(key).replace(/%20/g, '+');

		it('hides the key in a query value of a generated web address, as is, percent-encoded or form-encoded, and keeps the address before it', () => {
			fc.assert(
				fc.property(apiKeyWith(8, 100), webAddress, fc.constantFrom<Array<(key: string) => string>>((key) => key, encodeURIComponent, percentAll, formEncoded), (key, address, encode) => {
					fc.pre(!showsRunOf(address, key));
					const base = address.split('#')[0];
					const shown = redact(`${base}${base.includes('?') ? '&' : '?'}api_key=${encode(key)}`, key);
					expect(shown.startsWith(base)).toBe(true);
					expect(shown).toContain('[redacted]');
					expect(showsRunOf(shown, key)).toBe(false);
				}),
				{ numRuns: 200 },
			);
		});

		it('changes nothing in a generated web address that holds no run of the key, its percent-escapes and ampersands included', () => {
			fc.assert(
				fc.property(apiKeyWith(8, 100), webAddress, (key, address) => {
					fc.pre(!showsRunOf(address, key) && !/bearer/i.test(address));
					expect(redact(address, key)).toBe(address);
				}),
				{ numRuns: 300 },
			);
		});

		it('changes nothing in a text that holds no run of the key', () => {
			fc.assert(
				fc.property(apiKeyWith(8, 200), unicodeText(300), (key, text) => {
					fc.pre(!holdsRunOf(text, key) && !/bearer/i.test(text) && !/[%\\&]/.test(text));
					expect(redact(text, key)).toBe(text);
				}),
				{ numRuns: 300 },
			);
		});
	});

	describe('redact: a long key (a JWT with many claims)', () => {
		// Before: the key became a regular expression too large for V8, whose error quoted it.
		const longKey = `eyJ${'abcDEF0123456789_-'.repeat(300)}`;

		it('hides the key and any 8 characters of it, without failing', () => {
			const said = `invalid token ${longKey.slice(0, 40)}... and ${longKey.slice(2000, 2012)} and ${longKey}`;
			const shown = redact(said, longKey);
			expect(shown).toBe('invalid token [redacted]... and [redacted] and [redacted]');
		});

		it('hides the first part of a key that the platform quotes, and a key masked in the middle', () => {
			const key = 'sk_live_9f8e7d6c5b4a39281706';
			expect(redact(`bad key ${key.slice(0, 12)}…`, key)).toBe('bad key [redacted]…');
			expect(redact(`bad key ${key.slice(0, 10)}********${key.slice(-10)}`, key)).toBe('bad key [redacted]********[redacted]');
		});
	});
});

describe("the node's marker for a removed key", () => {
	// Pinned as text, not through the constant: docs/security.md, docs/node.md and the README quote
	// it, so a user who sees it in an output finds why. (keyEchoes.test.ts checks where it goes.)
	it('reads as the docs quote it', () => {
		expect(KEY_REMOVED_MARKER).toBe('[API key removed by the node]');
	});
});
