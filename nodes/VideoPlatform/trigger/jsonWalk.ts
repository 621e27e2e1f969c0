/**
 * One pass over a JSON value's text, telling a visitor what it meets: every character is read
 * once (a member name's once more, to decode it), whatever the nesting, and no recursion, so
 * depth costs no stack. Meant for text JSON.parse accepted; on other text it still
 * ends, or throws a SyntaxError where a member name is not JSON.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

const isJsonSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

interface JsonVisitor {
	/** Before each value: its member name in an object, its index in a list, undefined at the top. */
	enter(key: string | undefined): void;
	/** A string, number, true, false or null: [start, end) of its text. */
	scalar(start: number, end: number): void;
	/** A list or object opens at `start`. */
	open(start: number): void;
	/** The list or object opened last ends before `end`. */
	close(end: number): void;
}

/** The first place at or after `at` that is not JSON space; past the text's end charCodeAt gives NaN, no space. */
export function skipSpaces(text: string, at: number): number {
	while (isJsonSpace(text.charCodeAt(at))) at++;
	return at;
}

/** The end of the string whose opening quote is at `at`: the next quote after an even run of backslashes. */
function stringEnd(text: string, at: number): number {
	for (let quote = text.indexOf('"', at + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
		let backslashes = 0;
		while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
		if (backslashes % 2 === 0) return quote + 1;
	}
	return text.length;
}

function scalarEnd(text: string, at: number): number {
	let end = at;
	for (; end < text.length; end++) {
		const code = text.charCodeAt(end);
		if (isJsonSpace(code) || code === COMMA || code === CLOSE_OBJECT || code === CLOSE_LIST) break;
	}
	return end;
}

/** Walks the value starting at or after `from` (spaces first); returns where it ends. */
export function walkJson(text: string, from: number, visitor: JsonVisitor): number {
	// Per open list or object: whether it is an object, and the index of its next entry.
	const open: Array<{ isObject: boolean; count: number }> = [];
	let at = from;
	let key: string | undefined;
	for (;;) {
		at = skipSpaces(text, at);
		visitor.enter(key);
		const code = text.charCodeAt(at);
		if (code === OPEN_OBJECT || code === OPEN_LIST) {
			visitor.open(at);
			open.push({ isObject: code === OPEN_OBJECT, count: 0 });
			at++;
		} else {
			const end = code === QUOTE ? stringEnd(text, at) : scalarEnd(text, at);
			visitor.scalar(at, end);
			at = end;
		}
		// Past a value, or just inside a list or object: close what ends here, then find the next entry.
		let justOpened = code === OPEN_OBJECT || code === OPEN_LIST;
		for (;;) {
			const inner = open[open.length - 1];
			if (!inner) return at;
			at = skipSpaces(text, at);
			const next = text.charCodeAt(at);
			if ((justOpened && next !== CLOSE_OBJECT && next !== CLOSE_LIST) || (!justOpened && next === COMMA)) {
				if (!justOpened) at = skipSpaces(text, at + 1);
				if (inner.isObject) {
					const nameEnd = stringEnd(text, at);
					key = JSON.parse(text.slice(at, nameEnd)) as string;
					at = skipSpaces(text, nameEnd);
					if (text.charCodeAt(at) === COLON) at++;
				} else key = String(inner.count);
				inner.count++;
				break;
			}
			// A close, or (not JSON) anything else: the list or object ends here.
			open.pop();
			at = Math.min(at + 1, text.length);
			visitor.close(at);
			justOpened = false;
		}
	}
}
