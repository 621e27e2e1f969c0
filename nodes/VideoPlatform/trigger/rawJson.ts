/**
 * A delivery's values as the platform wrote them. n8n parses the body with JSON.parse, which
 * rounds numbers beyond 2^53 (a 64-bit id such as 1234567890123456789 becomes
 * 1234567890123456800), so ids and filter values are read from the raw body's text instead.
 */

const isSpace = (char: string | undefined) => char === ' ' || char === '\t' || char === '\n' || char === '\r';

function skipSpaces(text: string, at: number): number {
	while (isSpace(text[at])) at++;
	return at;
}

/** The end of the string token starting at `at` (its opening quote). */
function stringEnd(text: string, at: number): number {
	let end = at + 1;
	while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
	return end + 1;
}

/** The end of the value starting at `at`: nested values by counting brackets outside strings. */
function valueEnd(text: string, at: number): number {
	if (text[at] === '"') return stringEnd(text, at);
	if (text[at] !== '{' && text[at] !== '[') {
		let end = at;
		while (end < text.length && !/[\s,\]}]/.test(text[end])) end++;
		return end;
	}
	let depth = 0;
	for (let end = at; end < text.length; end++) {
		const char = text[end];
		if (char === '"') end = stringEnd(text, end) - 1;
		else if (char === '{' || char === '[') depth++;
		else if ((char === '}' || char === ']') && --depth === 0) return end + 1;
	}
	return text.length;
}

/** The [start, end) of each member of the object or list at `at`, by name (a list's by index). */
function membersOf(text: string, at: number): Map<string, [number, number]> {
	const members = new Map<string, [number, number]>();
	const isObject = text[at] === '{';
	let next = skipSpaces(text, at + 1);
	for (let index = 0; next < text.length && text[next] !== '}' && text[next] !== ']'; index++) {
		let name = String(index);
		if (isObject) {
			const nameEnd = stringEnd(text, next);
			name = JSON.parse(text.slice(next, nameEnd)) as string;
			next = skipSpaces(text, skipSpaces(text, nameEnd) + 1);
		}
		const end = valueEnd(text, next);
		// As JSON.parse does, the last of two members with one name counts.
		members.set(name, [next, end]);
		next = skipSpaces(text, end);
		if (text[next] === ',') next = skipSpaces(text, next + 1);
	}
	return members;
}

/**
 * The exact text of the value at a dot path (`data.room.id`, a list's entries by index) in a raw
 * JSON body whose top level is an object, or undefined when the body is not that or the path
 * leads nowhere. Only for bodies that JSON.parse accepts, which the caller has checked.
 */
export function sourceAt(raw: string, path: string): string | undefined {
	let at = skipSpaces(raw, 0);
	if (raw[at] !== '{') return undefined;
	let end = valueEnd(raw, at);
	for (const key of path.split('.').filter((part) => part !== '')) {
		if (raw[at] !== '{' && raw[at] !== '[') return undefined;
		const member = membersOf(raw, at).get(key);
		if (!member) return undefined;
		[at, end] = member;
	}
	return raw.slice(at, end);
}

/**
 * JSON with the keys of every object sorted and strings written one way, numbers exactly as
 * sent: equal values give equal text, and two numbers whose text differs never do.
 */
export function canonicalSource(source: string): string {
	const at = skipSpaces(source, 0);
	const first = source[at];
	if (first === '{' || first === '[') {
		const members = [...membersOf(source, at)].map(([name, [start, end]]) => [name, canonicalSource(source.slice(start, end))]);
		if (first === '[') return `[${members.map(([, value]) => value).join(',')}]`;
		members.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${members.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`;
	}
	if (first === '"') return JSON.stringify(JSON.parse(source.slice(at, stringEnd(source, at))));
	return source.slice(at, valueEnd(source, at));
}

/**
 * The exact text of the value at `path` in the raw body, when the raw body is a JSON object and
 * holds there what the payload holds (n8n's parse of it, numbers perhaps rounded).
 */
export function exactSourceAt(raw: string | undefined, path: string, value: unknown): string | undefined {
	if (raw === undefined || value === undefined) return undefined;
	try {
		const source = sourceAt(raw, path);
		if (source === undefined) return undefined;
		const asParsed = (text: string) => canonicalSource(JSON.stringify(JSON.parse(text)));
		return asParsed(source) === asParsed(JSON.stringify(value)) ? source.trim() : undefined;
	} catch {
		return undefined;
	}
}

/** The raw body's text when it is a JSON object, the only body whose values can be read exactly. */
export function rawJsonObject(rawBody: Buffer | string | undefined): string | undefined {
	if (rawBody === undefined) return undefined;
	const text = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
	try {
		const parsed: unknown = JSON.parse(text);
		return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? text : undefined;
	} catch {
		return undefined;
	}
}
