import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares in constant time. Both sides are hashed first, so that neither the length nor the
 * content of the expected secret leaks through timing.
 */
export function secretMatches(provided: unknown, expected: string): boolean {
	if (typeof provided !== 'string' || expected === '') return false;
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(provided), digest(expected));
}
