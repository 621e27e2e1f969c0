import {
	platformMessage,
	quotable,
	redact,
	stripControlCharacters,
} from '../../../../nodes/VideoPlatform/transport/platformText';

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

	it('finds even a one-character key in an encoded form', () => {
		expect(redact('x%61y x\\u0041y', 'a')).toBe('x[redacted]y x[redacted]y');
	});
});

describe('quotable', () => {
	it('cuts long text and marks the cut', () => {
		expect(quotable('abcdef', '', 3)).toBe('abc…');
		expect(stripControlCharacters('  a\n\nb  ')).toBe('a b');
	});
});
