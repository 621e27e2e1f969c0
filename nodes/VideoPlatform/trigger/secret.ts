import { createHash, timingSafeEqual } from 'node:crypto';

import { isHeaderSafeText, MAX_HEADER_SECRET_LENGTH } from '../shared/credentials';

/** Spaces around a pasted secret are never meant; a secret of spaces only is no secret. */
export function normalizeSecret(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/** An HTTP field name is a token (RFC 9110, tchar): no spaces, colons or anything beyond ASCII. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/i;

/**
 * Why the secret credential cannot check deliveries, or undefined when it can. Its Test shows
 * this; every delivery is refused while it holds, since no header could ever match.
 */
export function secretCredentialProblem(headerName: unknown, secret: unknown): string | undefined {
	const name = String(headerName ?? '').trim();
	if (name === '') return 'Enter a header name.';
	if (!HEADER_NAME.test(name)) {
		return "The header name can have only letters, digits and these characters: ! # $ % & ' * + - . ^ _ ` | ~ (no spaces or colons).";
	}
	const value = normalizeSecret(secret);
	if (value === '') return 'Enter a secret. Spaces around it are ignored, so a secret of only spaces is empty.';
	if (value.length > MAX_HEADER_SECRET_LENGTH) {
		return `The secret is longer than ${MAX_HEADER_SECRET_LENGTH.toLocaleString('en-US')} characters, more than a request's headers can carry. Enter the secret you set on the platform.`;
	}
	if (!isHeaderSafeText(value)) {
		return 'The secret can have only plain ASCII letters, digits, spaces and punctuation: HTTP headers cannot carry other characters reliably.';
	}
	return undefined;
}

/**
 * Compares in constant time, both sides trimmed. Both are hashed first, so that neither the
 * length nor the content of the expected secret leaks through timing.
 */
export function secretMatches(provided: unknown, expected: unknown): boolean {
	const wanted = normalizeSecret(expected);
	if (typeof provided !== 'string' || wanted === '') return false;
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(normalizeSecret(provided)), digest(wanted));
}
