/** Text that came from the platform (or from whatever answered at the Base URL). */

const MAX_QUOTED_LENGTH = 300;
const ESCAPE = 0x1b;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

/**
 * Each way one character of the key can be written in an echo, as a pattern: as it is,
 * percent-encoded (its UTF-8 bytes; a space also as `+`, as forms encode it), or JSON-escaped
 * (`\uXXXX`, `\"`, `\/`); a letter in either case, since an echo may change it.
 */
function formsOfCharacter(char: string): string {
	const forms = new Set<string>();
	for (const variant of [char, char.toLowerCase(), char.toUpperCase()]) {
		const percent = [...new TextEncoder().encode(variant)].map((byte) => `%${hex(byte, 2)}`).join('');
		const unicodeEscape = Array.from({ length: variant.length }, (_, i) => `\\u${hex(variant.charCodeAt(i), 4)}`);
		forms.add(escapeRegExp(variant)).add(percent).add(escapeRegExp(unicodeEscape.join('')));
	}
	if (char === ' ') forms.add('\\+');
	if ('"\\/'.includes(char)) forms.add(escapeRegExp(`\\${char}`));
	return `(?:${[...forms].join('|')})`;
}

/**
 * Removes the key, and anything sent as a Bearer token, wherever it is echoed: as sent, in any
 * letter case (a URL parser lowercases host names) and hex case, percent-encoded and JSON-escaped,
 * also a mix of those. Only for text from outside the node: a short key would garble its words.
 */
export function redact(text: string, secret: string): string {
	let withoutKey = text;
	if (secret.length > 0) {
		const pattern = [...secret].map(formsOfCharacter).join('');
		withoutKey = text.replace(new RegExp(pattern, 'gi'), '[redacted]');
	}
	return withoutKey.replace(/\bBearer\s+(?!\[redacted\])\S+/gi, 'Bearer [redacted]');
}

/** Drops ANSI escape sequences and turns other control characters (CR, LF, ...) into spaces. */
export function stripControlCharacters(text: string): string {
	let out = '';
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === ESCAPE) {
			if (text[i + 1] === '[') {
				i += 2;
				while (i < text.length && !/[@-~]/.test(text[i])) i++;
			} else {
				i++;
			}
			continue;
		}
		const isControl = code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0x2028 || code === 0x2029;
		out += isControl ? ' ' : text[i];
	}
	return out.replace(/ {2,}/g, ' ').trim();
}

/**
 * Safe to show: redacted before and after the control characters go (an escape sequence inside
 * the key would otherwise hide it from the first pass), and only then cut.
 */
export function quotable(text: string, secret: string, maxLength = MAX_QUOTED_LENGTH): string {
	const clean = redact(stripControlCharacters(redact(text, secret)), secret);
	return clean.length > maxLength ? `${clean.slice(0, maxLength)}…` : clean;
}

function firstString(...values: unknown[]): string | undefined {
	return values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

function wordsOf(body: unknown): string {
	if (typeof body === 'string') {
		try {
			return wordsOf(JSON.parse(body) as unknown);
		} catch {
			return body;
		}
	}
	if (body && typeof body === 'object') {
		const data = body as Record<string, unknown>;
		const nested = (data.error && typeof data.error === 'object' ? data.error : {}) as Record<
			string,
			unknown
		>;
		const found = firstString(
			data.message,
			data.error,
			nested.message,
			data.detail,
			data.title,
			data.error_description,
		);
		return found ?? JSON.stringify(body);
	}
	return '';
}

/**
 * The platform's own words from an error body, safe to show. The error body shape is not
 * published, so common fields are tried and the raw text is the fallback.
 */
export function platformMessage(body: unknown, secret: string): string {
	return quotable(wordsOf(body), secret);
}
