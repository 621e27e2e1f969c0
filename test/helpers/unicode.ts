import * as fc from 'fast-check';

/**
 * Any Unicode scalar value as a one-character string. fast-check's own `unit: 'binary'` covers
 * the same space but costs seconds on its first use in a process; this costs nothing.
 */
export const anyCodePoint = fc
	.integer({ min: 0, max: 0x10ffff })
	.filter((cp) => cp < 0xd800 || cp > 0xdfff)
	.map((cp) => String.fromCodePoint(cp));

/** Text drawn from the whole of Unicode, not only printable ASCII as `fc.string()` is. */
export const anyText = (constraints: { minLength?: number; maxLength?: number } = {}) => fc.string({ unit: anyCodePoint, ...constraints });

/** Every code point of a class, listed once per process (about a second for the whole range). */
export function codePointsOf(unicodeClass: RegExp): number[] {
	const found: number[] = [];
	for (let cp = 0; cp <= 0x10ffff; cp++) if (unicodeClass.test(String.fromCodePoint(cp))) found.push(cp);
	return found;
}

/** Space as JSON allows it between tokens, of all four kinds: space, tab, line feed, carriage return. */
export const jsonSpace = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 3 });
