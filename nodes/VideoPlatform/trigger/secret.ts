import { createHash, timingSafeEqual } from 'node:crypto';

/** Spaces around a pasted secret are never meant; a secret of spaces only is no secret. */
export function normalizeSecret(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
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
