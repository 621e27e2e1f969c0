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

describe('quotable', () => {
	it('cuts long text and marks the cut', () => {
		expect(quotable('abcdef', '', 3)).toBe('abc…');
		expect(stripControlCharacters('  a\n\nb  ')).toBe('a b');
	});
});
