/** Header values carry visible ASCII only; anything else would fail or be mangled on the way. */
export function isHeaderSafeText(text: string): boolean {
	return /^[\x20-\x7e]*$/.test(text);
}

/**
 * Longer than servers take in one request's headers (Node's default is 16 KB for all of them,
 * nginx's 8 KB a line): a paste of something else, refused before it is sent or looked for anywhere.
 */
export const MAX_HEADER_SECRET_LENGTH = 16_384;
