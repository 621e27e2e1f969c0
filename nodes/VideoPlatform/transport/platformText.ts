/** Text that came from the platform (or from whatever answered at the Base URL). */

import { escapeSequenceLength, hideSecret, hideSecretInValue } from '../shared/secretTraces';

const MAX_QUOTED_LENGTH = 300;

/** What replaces the key in errors; the node's output says more (see withoutSecret). */
const REDACTED = '[redacted]';

/** Shown instead of a text that the redaction itself could not handle: never the text. */
const UNCHECKABLE = '[redacted: this text could not be checked for the key]';

/**
 * Removes the key wherever and however it is echoed (secretTraces.ts), and anything sent as a
 * Bearer token. Only for text from outside the node: a short key would garble the node's words.
 * It never throws: a text it cannot check is not shown at all.
 */
export function redact(text: string, secret: string): string {
	try {
		return hideSecret(String(text), String(secret ?? ''), REDACTED).replace(/\bBearer\s+(?!\[redacted\])\S+/gi, 'Bearer [redacted]');
	} catch {
		return UNCHECKABLE;
	}
}

/** What the node's output holds where a successful answer held the key. */
export const KEY_REMOVED_MARKER = '[API key removed by the node]';

/** A successful answer with every trace of the key replaced by KEY_REMOVED_MARKER. */
export function withoutSecret(value: unknown, secret: string): unknown {
	return hideSecretInValue(value, secret, KEY_REMOVED_MARKER);
}

/** Drops ANSI escape sequences and turns other control characters (CR, LF, ...) into spaces. */
export function stripControlCharacters(text: string): string {
	let out = '';
	for (let i = 0; i < text.length; i++) {
		const sequence = escapeSequenceLength(text, i);
		if (sequence > 0) {
			i += sequence - 1;
			continue;
		}
		const code = text.charCodeAt(i);
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
		const nested = (data.error && typeof data.error === 'object' ? data.error : {}) as Record<string, unknown>;
		const found = firstString(data.message, data.error, nested.message, data.detail, data.title, data.error_description);
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
