/**
 * Finds what the API key or the webhook secret leaves in a text, so that neither node shows it.
 * No regular expression is made from the secret: its runs are looked up in a set.
 */

// The node's own ANSI handling (platformText.ts) drops the same sequences.
const ESCAPE = 0x1b;

/** Any run of the key this long is hidden, so that no part of it worth guessing from shows. */
const HIDDEN_RUN = 8;

/** Base64 writes 8 characters of the key as at least 10 digits of their own, whatever the alignment. */
const HIDDEN_BASE64_RUN = 10;

/** [first, last] code ranges of characters that do not show, or only steer the text: an echo may slip them into the key. */
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
	[0x00, 0x1f], [0x7f, 0x9f], [0xad, 0xad], [0x34f, 0x34f], [0x61c, 0x61c], [0x115f, 0x1160], [0x17b4, 0x17b5],
	[0x180b, 0x180f], [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164], [0xfe00, 0xfe0f],
	[0xfeff, 0xfeff], [0xffa0, 0xffa0],
];

/** The first half of Unicode's tag characters (U+E0000 to U+E007F), which show nothing. */
const TAG_HIGH_SURROGATE = 0xdb40;

const isTagAt = (text: string, at: number) =>
	text.charCodeAt(at) === TAG_HIGH_SURROGATE && (text.charCodeAt(at + 1) & 0xff80) === 0xdc00;

const isInvisibleCode = (code: number) => INVISIBLE_RANGES.some(([first, last]) => code >= first && code <= last);

function withoutInvisible(text: string): string {
	let out = '';
	for (let at = 0; at < text.length; at++) {
		if (isTagAt(text, at)) at++;
		else if (!isInvisibleCode(text.charCodeAt(at))) out += text[at];
	}
	return out;
}

/** Whether a text may hold an escape or an invisible character; anything else is read as it is. */
function mayBeEncoded(text: string): boolean {
	for (let at = 0; at < text.length; at++) {
		const code = text.charCodeAt(at);
		if (code === 0x25 || code === 0x5c || code === 0x26 || code === TAG_HIGH_SURROGATE || isInvisibleCode(code)) return true;
	}
	return false;
}

/** HTML's names for the ASCII characters a key may hold. */
const HTML_ENTITIES: Record<string, string> = {
	amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/', bsol: '\\', colon: ':', semi: ';',
	equals: '=', plus: '+', lowbar: '_', period: '.', comma: ',', excl: '!', quest: '?', num: '#',
	dollar: '$', percnt: '%', ast: '*', midast: '*', lpar: '(', rpar: ')', commat: '@', lsqb: '[',
	rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{', rcub: '}', lbrace: '{', rbrace: '}',
	verbar: '|', vert: '|', hat: '^', grave: '`', tilde: '~', hyphen: '-', dash: '-', nbsp: ' ',
};

const NO_CHARACTER = 0xfffd;

const isHex = (code: number) => (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 102);

function hexAt(text: string, at: number, digits: number): number | undefined {
	if (at + digits > text.length) return undefined;
	for (let i = at; i < at + digits; i++) if (!isHex(text.charCodeAt(i))) return undefined;
	return parseInt(text.slice(at, at + digits), 16);
}

const JSON_SHORT_ESCAPES: Record<string, number> = { '"': 34, '\\': 92, '/': 47, "'": 39, b: 8, f: 12, n: 10, r: 13, t: 9 };

/** The character an escape at `at` stands for and the escape's length, or undefined if none starts there. */
function escapeAt(text: string, at: number): [number, number] | undefined {
	const first = text[at];
	if (first === '%') {
		const byte = hexAt(text, at + 1, 2);
		return byte === undefined ? undefined : [byte, 3];
	}
	if (first === '\\') {
		const kind = text[at + 1] ?? '';
		if (kind === 'u' || kind === 'U') {
			const code = hexAt(text, at + 2, 4);
			return code === undefined ? undefined : [code, 6];
		}
		if (kind === 'x' || kind === 'X') {
			const code = hexAt(text, at + 2, 2);
			return code === undefined ? undefined : [code, 4];
		}
		const short = JSON_SHORT_ESCAPES[kind];
		return short === undefined ? undefined : [short, 2];
	}
	if (first === '&') {
		const entity = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));?/.exec(text.slice(at, at + 12));
		if (!entity) return undefined;
		const [whole, decimal, hex, name] = entity;
		if (name !== undefined) {
			const named = HTML_ENTITIES[name.toLowerCase()];
			return named === undefined || !whole.endsWith(';') ? undefined : [named.charCodeAt(0), whole.length];
		}
		const code = decimal !== undefined ? parseInt(decimal, 10) : parseInt(hex, 16);
		return [code > 0xffff ? NO_CHARACTER : code, whole.length];
	}
	return undefined;
}

/** A text with its escapes undone and invisible characters dropped; `origin[k]` is where its k-th character began. */
interface Decoded {
	text: string;
	origin: Int32Array | null;
}

/** A tag character, or an ANSI escape sequence as stripControlCharacters drops it: both show nothing. */
function hiddenSequenceLength(text: string, at: number): number {
	if (isTagAt(text, at)) return 2;
	if (text.charCodeAt(at) !== ESCAPE) return 0;
	if (text[at + 1] !== '[') return Math.min(2, text.length - at);
	let end = at + 2;
	while (end < text.length && !/[@-~]/.test(text[end])) end++;
	return Math.min(end + 1, text.length) - at;
}

function decodeOnce(text: string): Decoded {
	if (!mayBeEncoded(text)) return { text, origin: null };
	const codes = new Uint16Array(text.length);
	const origin = new Int32Array(text.length + 1);
	let length = 0;
	for (let at = 0; at < text.length; ) {
		const hidden = hiddenSequenceLength(text, at);
		if (hidden > 0) {
			at += hidden;
			continue;
		}
		const [code, size] = escapeAt(text, at) ?? [text.charCodeAt(at), 1];
		if (!isInvisibleCode(code)) {
			origin[length] = at;
			codes[length++] = code;
		}
		at += size;
	}
	origin[length] = text.length;
	let decoded = '';
	for (let from = 0; from < length; from += 8192) {
		decoded += String.fromCharCode(...codes.subarray(from, Math.min(length, from + 8192)));
	}
	return { text: decoded, origin: origin.subarray(0, length + 1) };
}

/**
 * The text as it is, with its escapes undone, and undone twice (`%2541` for `A`): a key may hold
 * what looks like an escape, or an echo may encode what was already encoded.
 */
function readings(text: string): Decoded[] {
	const once = decodeOnce(text);
	if (!once.origin) return [once];
	const twice = decodeOnce(once.text);
	const origin = twice.origin ? twice.origin.map((at) => once.origin![at]) : once.origin;
	return [{ text, origin: null }, once, { text: twice.text, origin }];
}

/** ASCII letters in one case, and `+` as a space, as forms write it: the same length as the text. */
const foldCase = (text: string) => text.replace(/[A-Z+]/g, (c) => (c === '+' ? ' ' : c.toLowerCase()));

/** Base64url's two digits as base64 writes them. */
const asBase64 = (text: string) => text.replace(/[-_]/g, (c) => (c === '-' ? '+' : '/'));

function runsOf(text: string, size: number, into: Set<string> = new Set()): Set<string> {
	for (let i = 0; i + size <= text.length; i++) into.add(text.slice(i, i + size));
	return into;
}

/**
 * The key's base64 digits at each of the three places it may start within a group of three
 * bytes, without the digits it shares with its neighbours.
 */
function base64Runs(key: string): Set<string> {
	const bytes = Buffer.from(key, 'utf8');
	const runs = new Set<string>();
	for (let offset = 0; offset < 3; offset++) {
		const digits = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		runsOf(digits.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)), HIDDEN_BASE64_RUN, runs);
	}
	return runs;
}

/** Where in `text` a run of `size` characters from `runs` is, merged into [start, end) ranges. */
function rangesOf(text: string, runs: Set<string>, size: number): Array<[number, number]> {
	const ranges: Array<[number, number]> = [];
	if (runs.size === 0) return ranges;
	for (let i = 0; i + size <= text.length; i++) {
		if (!runs.has(text.slice(i, i + size))) continue;
		const last = ranges[ranges.length - 1];
		if (last && i <= last[1]) last[1] = i + size;
		else ranges.push([i, i + size]);
	}
	return ranges;
}

interface KeyRuns {
	key: string;
	size: number;
	runs: Set<string>;
	base64: Set<string>;
}

/** The last key's runs: an answer's many texts are all checked for the same key. */
let lastKeyRuns: KeyRuns | undefined;

function keyRunsOf(key: string): KeyRuns {
	if (lastKeyRuns?.key === key) return lastKeyRuns;
	const size = Math.min(HIDDEN_RUN, key.length);
	const base64 = key.length >= HIDDEN_RUN ? base64Runs(key) : new Set<string>();
	lastKeyRuns = { key, size, runs: runsOf(foldCase(key), size), base64 };
	return lastKeyRuns;
}

/** Where in `text` the secret shows, as [start, end) ranges of `text`, in no order. */
function tracesOf(text: string, key: string): Array<[number, number]> {
	const { size, runs, base64 } = keyRunsOf(key);
	return readings(text).flatMap(({ text: read, origin }) => {
		const found = [...rangesOf(foldCase(read), runs, size), ...rangesOf(asBase64(read), base64, HIDDEN_BASE64_RUN)];
		return origin ? found.map(([start, end]): [number, number] => [origin[start], origin[end]]) : found;
	});
}

/**
 * Replaces each trace of the secret with `marker`: any run of 8 or more of its characters (a
 * shorter secret whole), in any ASCII letter case, percent-encoded, JSON-, \\x- or HTML-escaped
 * (also twice, or mixed), in base64 or base64url, or with invisible characters or ANSI sequences
 * slipped in. Time linear in the text; the secret's runs are made once per secret. May throw
 * only where memory runs out: callers show a marker instead.
 */
export function hideSecret(text: string, secret: string, marker: string): string {
	const key = withoutInvisible(secret);
	if (key === '' || text === '') return text;
	const found = tracesOf(text, key);
	if (found.length === 0) return text;
	let out = '';
	let shownUpTo = -1;
	for (const [from, to] of found.sort((a, b) => a[0] - b[0])) {
		// A range that touches or overlaps the one before shares its marker.
		if (from > shownUpTo) out += `${text.slice(Math.max(shownUpTo, 0), from)}${marker}`;
		shownUpTo = Math.max(shownUpTo, to);
	}
	return out + text.slice(shownUpTo);
}

/**
 * A JSON value with every trace of the secret replaced by `marker`, in names and values; a
 * number that spells the secret becomes the marker. Values are nested at most
 * MAX_NESTING_DEPTH levels (shared/nesting.ts) where this is used, so recursion is bounded.
 */
export function hideSecretInValue(value: unknown, secret: string, marker: string): unknown {
	const hide = (text: string) => {
		try {
			return hideSecret(text, secret, marker);
		} catch {
			return marker;
		}
	};
	const walk = (entry: unknown): unknown => {
		if (typeof entry === 'string') return hide(entry);
		if (typeof entry === 'number') return hide(String(entry)) === String(entry) ? entry : marker;
		if (Array.isArray(entry)) return entry.map(walk);
		if (entry === null || typeof entry !== 'object') return entry;
		return Object.fromEntries(Object.entries(entry).map(([name, inner]) => [hide(name), walk(inner)]));
	};
	return walk(value);
}
