/**
 * JSON with the keys of every object sorted, so that equal values give equal text. Written into
 * one list of pieces joined once, so that no level copies the text of the levels inside it.
 * Recursive: the trigger refuses a delivery nested deeper than MAX_NESTING_DEPTH
 * (shared/nesting.ts) before it gets here.
 */
export function canonicalJson(value: unknown): string {
	const pieces: string[] = [];
	const write = (inner: unknown) => {
		if (Array.isArray(inner)) {
			pieces.push('[');
			inner.forEach((entry: unknown, index) => {
				if (index > 0) pieces.push(',');
				write(entry);
			});
			pieces.push(']');
		} else if (inner !== null && typeof inner === 'object') {
			pieces.push('{');
			Object.keys(inner)
				.sort()
				.forEach((key, index) => {
					pieces.push(index > 0 ? ',' : '', JSON.stringify(key), ':');
					write((inner as Record<string, unknown>)[key]);
				});
			pieces.push('}');
		} else pieces.push(JSON.stringify(inner) ?? 'null');
	};
	write(value);
	return pieces.join('');
}
