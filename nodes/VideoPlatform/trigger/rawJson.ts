/**
 * A delivery's values as the platform wrote them. n8n parses the body with JSON.parse, which
 * rounds numbers beyond 2^53 (a 64-bit id such as 1234567890123456789 becomes
 * 1234567890123456800), so ids and filter values are read from the body's text instead.
 * Each reading is one pass over the text (jsonWalk.ts): a delivery's size bounds its work, however
 * deeply it nests.
 */
import { canonicalJson } from './canonicalJson';
import { skipSpaces, walkJson } from './jsonWalk';

const OPEN_OBJECT = 0x7b;
const BYTE_ORDER_MARK = 0xfeff;

/** The text without a leading byte-order mark, as n8n 2.x parses a JSON body (n8n 1.x refuses one with it). */
export function withoutByteOrderMark(text: string): string {
	return text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
}

/**
 * The [start, end) of the value at a dot path (`data.room.id`, a list's entries by index) in a
 * JSON text whose top level is an object, in one pass. As JSON.parse does, the last of two members
 * with one name counts, and everything an earlier one held is forgotten with it.
 */
function rangeAt(raw: string, path: string): [number, number] | undefined {
	if (raw.charCodeAt(skipSpaces(raw, 0)) !== OPEN_OBJECT) return undefined;
	const parts = path.split('.').filter((part) => part !== '');
	// Per open list or object: whether it is the value at the path's first (depth - 1) parts.
	const onPath: boolean[] = [];
	let next: 'prefix' | 'found' | 'off' = 'off';
	let found: [number, number] | undefined;
	let foundDepth = -1;
	let foundStart = 0;
	walkJson(raw, 0, {
		enter(key) {
			const depth = onPath.length;
			if (depth === 0) next = parts.length === 0 ? 'found' : 'prefix';
			else if (onPath[depth - 1] && key === parts[depth - 1]) {
				// A later member of the same name replaces what an earlier one held.
				found = undefined;
				next = depth === parts.length ? 'found' : 'prefix';
			} else next = 'off';
		},
		scalar(start, end) {
			if (next === 'found') found = [start, end];
		},
		open(start) {
			onPath.push(next === 'prefix');
			if (next === 'found') [foundDepth, foundStart] = [onPath.length, start];
		},
		close(end) {
			if (onPath.length === foundDepth) [found, foundDepth] = [[foundStart, end], -1];
			onPath.pop();
		},
	});
	return found;
}

/**
 * The exact text of the value at a dot path (`data.room.id`, a list's entries by index) in a raw
 * JSON body whose top level is an object, or undefined when the body is not that or the path
 * leads nowhere. Only for bodies that JSON.parse accepts, which the caller has checked.
 */
function sourceAt(raw: string, path: string): string | undefined {
	const range = rangeAt(raw, path);
	return range && raw.slice(range[0], range[1]);
}

/** A canonical text in pieces, nested as the JSON nests; joined once at the end, so that no level copies the levels inside it. */
type Pieces = Array<string | Pieces>;

function joined(pieces: Pieces): string {
	const flat: string[] = [];
	const pending: Array<{ list: Pieces; next: number }> = [{ list: pieces, next: 0 }];
	while (pending.length > 0) {
		const top = pending[pending.length - 1];
		if (top.next === top.list.length) {
			pending.pop();
			continue;
		}
		const piece = top.list[top.next++];
		if (Array.isArray(piece)) pending.push({ list: piece, next: 0 });
		else flat.push(piece);
	}
	return flat.join('');
}

const commaSeparated = (items: Pieces[]): Pieces => items.flatMap((item, index) => (index === 0 ? [item] : [',', item]));

/** An open list's entries, or an open object's members by name (a later one of a name replacing an earlier one). */
interface OpenValue {
	key: string | undefined;
	entries?: Pieces[];
	members?: Map<string, Pieces>;
}

/**
 * JSON with the keys of every object sorted and strings written one way, numbers exactly as
 * sent: equal values give equal text, and two numbers whose text differs never do. One pass over
 * the text.
 */
export function canonicalSource(source: string): string {
	const open: OpenValue[] = [];
	let key: string | undefined;
	let result: Pieces = [];
	const add = (pieces: Pieces, name: string | undefined) => {
		const parent = open[open.length - 1];
		if (!parent) result = pieces;
		else if (parent.members) parent.members.set(name as string, pieces);
		else parent.entries?.push(pieces);
	};
	walkJson(source, 0, {
		enter(name) {
			key = name;
		},
		scalar(start, end) {
			const token = source.slice(start, end);
			const first = token.charCodeAt(0);
			const isNumber = first === 0x2d || (first >= 0x30 && first <= 0x39);
			// Strings one way: escapes undone, then written as JSON.stringify writes them.
			add([isNumber ? token : JSON.stringify(JSON.parse(token))], key);
		},
		open(start) {
			open.push(source.charCodeAt(start) === OPEN_OBJECT ? { key, members: new Map() } : { key, entries: [] });
		},
		close() {
			const { key: name, entries, members } = open.pop() as OpenValue;
			if (members) {
				const sorted = [...members.keys()].sort().map((member): Pieces => [JSON.stringify(member), ':', members.get(member) as Pieces]);
				add(['{', ...commaSeparated(sorted), '}'], name);
			} else add(['[', ...commaSeparated(entries ?? []), ']'], name);
		},
	});
	return joined(result);
}

/**
 * The exact text of the value at `path` in the raw body, when the raw body is a JSON object and
 * holds there what the payload holds (n8n's parse of it, numbers perhaps rounded): compared as
 * JSON.parse reads both, so that a body decoded otherwise than n8n decoded it is never used.
 */
export function exactSourceAt(raw: string | undefined, path: string, value: unknown): string | undefined {
	if (raw === undefined || value === undefined) return undefined;
	try {
		const source = sourceAt(raw, path);
		if (source === undefined) return undefined;
		return canonicalJson(JSON.parse(source)) === canonicalJson(value) ? source : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The JSON text whose values the payload holds, as payloadOf makes the payload of a body: the
 * body's text (its byte-order mark dropped) when it is a JSON object, else the body under `body`.
 * Undefined when the body is not JSON.
 */
export function payloadJsonOf(text: string | undefined): string | undefined {
	if (text === undefined) return undefined;
	const json = withoutByteOrderMark(text);
	try {
		JSON.parse(json);
	} catch {
		return undefined;
	}
	return json.charCodeAt(skipSpaces(json, 0)) === OPEN_OBJECT ? json : `{"body":${json}}`;
}
