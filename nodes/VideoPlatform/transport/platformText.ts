/** Text that came from outside the node (the platform, whatever answered at the Base URL, items), made safe to show: one place. */

import { escapeSequenceLength, hideSecret, hideSecretInValue, INVISIBLE_CHARACTER } from '../shared/secretTraces';

const MAX_QUOTED_LENGTH = 300;

/** What replaces the key in errors; the node's output says more (see withoutSecret). */
const REDACTED = '[redacted]';

/** Shown instead of a text that the redaction itself could not handle: never the text. */
const UNCHECKABLE = '[redacted: this text could not be checked for the key]';

/** "Bearer" and a token after it, as a person reads them: invisible characters in the word and between the two count for nothing. */
const BEARER_TOKEN = new RegExp(
	`\\b${[...'Bearer'].join(`${INVISIBLE_CHARACTER.source}*`)}(?:\\s|${INVISIBLE_CHARACTER.source})+(?!\\[redacted\\])\\S+`,
	'giu',
);

/** Removes the key however echoed, and any Bearer token, from text from outside; never throws, hides what it cannot check. */
export function redact(text: string, secret: string): string {
	try {
		return hideSecret(String(text), String(secret ?? ''), REDACTED).replace(BEARER_TOKEN, 'Bearer [redacted]');
	} catch {
		return UNCHECKABLE;
	}
}

export const KEY_REMOVED_MARKER = '[API key removed by the node]';

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
 * n8n's editor shows an error's message and description, and hints, as HTML (cleaned, but links and
 * images survive), and the panel's header shows the message as plain text, where an HTML escape
 * such as `&lt;` would show as typed. So no escape: the angle brackets, without which no tag can
 * begin, become the look-alikes ‹ › (U+2039, U+203A), which no Unicode normalisation turns back
 * into < >. Quotes and ampersands stay: outside a tag they make no markup.
 */
export function withoutMarkup(text: string): string {
	return text.replace(/</g, '\u2039').replace(/>/g, '\u203A');
}

/** Safe to show: redacted before and after control characters go (an escape inside the key hides it), no markup, then cut. */
export function quotable(text: string, secret: string, maxLength = MAX_QUOTED_LENGTH): string {
	const clean = withoutMarkup(redact(stripControlCharacters(redact(text, secret)), secret));
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

/** The platform's words from an error body (its shape is unpublished: common fields, else the raw text), safe to show. */
export function platformMessage(body: unknown, secret: string): string {
	return quotable(wordsOf(body), secret);
}
