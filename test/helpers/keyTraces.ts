import fc from 'fast-check';

import { anyCodePoint, anyText, codePointsOf } from './unicode';

/**
 * What the redaction tests generate and how they check that nothing of the key shows: written
 * apart from the redaction's code, from Unicode's own classes. What counts as invisible is the
 * redaction's definition too (the same two classes): a character outside both that shows nothing
 * would be missed by the redaction and by these tests alike.
 */

/**
 * Unicode's Default_Ignorable_Code_Point class (thousands of code points that show nothing, most
 * of \p{Cf} among them) and the control characters (\p{Cc}). The few \p{Cf} outside both, such
 * as the Arabic number signs and the hieroglyph format controls, change what shows around them.
 */
const INVISIBLE = codePointsOf(/^[\p{Default_Ignorable_Code_Point}\p{Cc}]$/u);

/** Any one character of those whole classes. */
export const invisibleCharacter = fc
	.integer({ min: 0, max: INVISIBLE.length - 1 })
	.map((index) => String.fromCodePoint(INVISIBLE[index]));

/** Half a surrogate pair, as a text cut in the middle of an emoji leaves it. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/** Text from the whole of Unicode: any code point, the characters people write, or either with lone halves of surrogate pairs. */
export const unicodeText = (maxLength: number) =>
	fc.oneof(
		anyText({ maxLength }),
		fc.string({ unit: 'grapheme', maxLength }),
		fc.string({ unit: fc.oneof(anyCodePoint, fc.string({ unit: 'grapheme', maxLength: 1 }), loneSurrogate), maxLength }),
	);

const SPECIAL = [...' .*+?^${}()|[]\\/"\'%&#=:;,<>~`!@'];
const VISIBLE_ASCII = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code));

/** API keys as a header carries them, often with spaces and characters special to regular expressions, JSON and URLs. */
export const apiKeyWith = (minLength: number, maxLength: number) =>
	fc.string({ unit: fc.oneof(VISIBLE_ASCII, fc.constantFrom(...SPECIAL)), minLength, maxLength });

/** Keys with an i or I at least every 7 characters: Turkish casing turns each into İ or ı. */
export const keyWithIs = fc
	.array(fc.tuple(apiKeyWith(0, 6), fc.constantFrom('i', 'I')), { minLength: 8, maxLength: 24 })
	.map((parts) => parts.map(([part, letter]) => part + letter).join(''));

/** The key with `gaps` (one after each character, over again) slipped between its characters. */
export function spreadWith(key: string, gaps: string[]): string {
	return [...key].map((character, at) => (at < key.length - 1 ? character + gaps[at % gaps.length] : character)).join('');
}

/** A text as a person reads it: nothing invisible, no accents, one letter case. */
function asRead(text: string): string {
	return text
		.replace(/[\p{Default_Ignorable_Code_Point}\p{Cc}]/gu, '')
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.toUpperCase()
		.toLowerCase();
}

/** Percent-escapes undone as a browser's address bar shows them; a run that is no UTF-8 stays as it is. */
const percentDecoded = (text: string) =>
	text.replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
		try {
			return decodeURIComponent(escapes);
		} catch {
			return escapes;
		}
	});

/** Numeric HTML entities undone, as a browser shows them. */
const entitiesDecoded = (text: string) =>
	text.replace(/&#(?:x([0-9a-f]{1,6})|(\d{1,7}));/gi, (entity, hex: string | undefined, decimal: string | undefined) => {
		const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
		return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
	});

/**
 * Whether a person reads 8 consecutive characters of the key (a shorter key whole) in the text,
 * as it is, as a browser shows its percent-escapes or HTML entities, or as a server reads a
 * form-encoded query (a "+" for a space).
 */
export function showsRunOf(text: string, key: string): boolean {
	const readKey = asRead(key);
	const size = Math.min(8, readKey.length);
	return [text, percentDecoded(text), percentDecoded(text.replace(/\+/g, ' ')), entitiesDecoded(text)].some((form) => {
		const read = asRead(form);
		for (let at = 0; at + size <= readKey.length; at++) if (read.includes(readKey.slice(at, at + size))) return true;
		return false;
	});
}
