/** Header values carry visible ASCII only; anything else would fail or be mangled on the way. */
export function isHeaderSafeText(text: string): boolean {
	return /^[\x20-\x7e]*$/.test(text);
}
