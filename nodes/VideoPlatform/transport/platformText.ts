/** Text that came from the platform (or from whatever answered at the Base URL). */

const MAX_QUOTED_LENGTH = 300;
const ESCAPE = 0x1b;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Removes the key, and anything sent as a Bearer token, wherever it is echoed: as sent, in any
 * letter case (a URL parser lowercases host names), and as JSON writes it inside a string.
 */
export function redact(text: string, secret: string): string {
	let withoutKey = text;
	if (secret.length > 0) {
		const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1)])].map(escapeRegExp);
		withoutKey = text.replace(new RegExp(forms.join('|'), 'gi'), '[redacted]');
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
