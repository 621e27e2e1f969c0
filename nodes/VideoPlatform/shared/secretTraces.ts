/**
 * Finds what the API key or the webhook secret leaves in a text, so that neither node shows it.
 * No regular expression is made from the secret: its runs are looked up in a set.
 */

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

const isInvisibleCode = (code: number) =>
	(code < 0x20 || code > 0x7e) && INVISIBLE_RANGES.some(([first, last]) => code >= first && code <= last);

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

/** The length of the ANSI escape sequence at `at` (ESC and one character, or ESC [ up to its final byte), else 0. */
export function escapeSequenceLength(text: string, at: number): number {
	if (text.charCodeAt(at) !== ESCAPE) return 0;
	if (text[at + 1] !== '[') return Math.min(2, text.length - at);
	let end = at + 2;
	while (end < text.length && !/[@-~]/.test(text[end])) end++;
	return Math.min(end + 1, text.length) - at;
}

/** A tag character or an ANSI escape sequence: both show nothing. */
function hiddenSequenceLength(text: string, at: number): number {
	return isTagAt(text, at) ? 2 : escapeSequenceLength(text, at);
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
function foldCase(text: string): string {
	// Beyond ASCII, a letter's lower case may be longer (İ), which would shift every position after it.
	const lower = /[\u0080-\uffff]/.test(text) ? text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : text.toLowerCase();
	return lower.replace(/\+/g, ' ');
}

/** Base64url's two digits as base64 writes them. */
const asBase64 = (text: string) => text.replace(/-/g, '+').replace(/_/g, '/');

/**
 * Runs of one length, as text and as rolling hashes: each place in a text costs one number
 * looked up, and only a hash that matches costs a comparison of text.
 */
interface Runs {
	size: number;
	texts: Set<string>;
	hashes: Set<number>;
}

// Polynomial hashes in 32-bit integer arithmetic (wrapping), looked up by their low 30 bits,
// which V8 keeps as small integers: a few nanoseconds a character. Matches are checked as text.
const HASH_BASE = 131;
const LOOKED_UP_BITS = 0x3fffffff;

function hashOf(text: string): number {
	let hash = 0;
	for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(i)) | 0;
	return hash & LOOKED_UP_BITS;
}

function runsOf(texts: string[], size: number): Runs {
	const runs: Runs = { size, texts: new Set(), hashes: new Set() };
	for (const text of texts) {
		for (let i = 0; i + size <= text.length; i++) runs.texts.add(text.slice(i, i + size));
	}
	for (const run of runs.texts) runs.hashes.add(hashOf(run));
	return runs;
}

/**
 * The key's base64 digits at each of the three places it may start within a group of three
 * bytes, without the digits it shares with its neighbours.
 */
function base64Runs(key: string): Runs {
	const bytes = Buffer.from(key, 'utf8');
	const digits = [0, 1, 2].map((offset) =>
		Buffer.concat([Buffer.alloc(offset), bytes])
			.toString('base64')
			.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)),
	);
	return runsOf(key.length >= HIDDEN_RUN ? digits : [], HIDDEN_BASE64_RUN);
}

/** Where in `text` a run of `size` characters from `runs` is, merged into [start, end) ranges. */
function rangesOf(text: string, { size, texts, hashes }: Runs): Array<[number, number]> {
	const ranges: Array<[number, number]> = [];
	if (texts.size === 0) return ranges;
	let top = 1;
	for (let i = 1; i < size; i++) top = Math.imul(top, HASH_BASE);
	let hash = 0;
	for (let end = 0; end < text.length; end++) {
		if (end >= size) hash = (hash - Math.imul(text.charCodeAt(end - size), top)) | 0;
		hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(end)) | 0;
		const start = end + 1 - size;
		if (start < 0 || !hashes.has(hash & LOOKED_UP_BITS) || !texts.has(text.slice(start, end + 1))) continue;
		const last = ranges[ranges.length - 1];
		if (last && start <= last[1]) last[1] = end + 1;
		else ranges.push([start, end + 1]);
	}
	return ranges;
}

interface KeyRuns {
	secret: string;
	plain: Runs;
	base64: Runs;
}

/** The last secret's runs: an answer's many texts are all checked for the same key. */
let lastKeyRuns: KeyRuns | undefined;

/**
 * The key as JSON and URLs escape it. Decoding the text finds these too, except where the key itself
 * holds what reads as another escape (`%00` inside a key whose `"` came JSON-escaped): decoding
 * then changes both, so the escaped forms are looked for as they are.
 */
function escapedForms(key: string): string[] {
	const forms = [JSON.stringify(key).slice(1, -1)];
	try {
		forms.push(encodeURIComponent(key));
	} catch {
		// A lone surrogate has no percent-encoding: nothing can echo it that way.
	}
	return forms;
}

/** The secret's runs, or undefined for a secret of invisible characters only, which nothing shows. */
function keyRunsOf(secret: string): KeyRuns | undefined {
	if (lastKeyRuns?.secret !== secret) {
		const key = withoutInvisible(secret);
		const plain = runsOf([key, ...escapedForms(key)].map(foldCase), Math.min(HIDDEN_RUN, key.length));
		lastKeyRuns = { secret, plain, base64: base64Runs(key) };
	}
	return lastKeyRuns.plain.size === 0 ? undefined : lastKeyRuns;
}

/** Where in `text` the secret shows, as [start, end) ranges of `text`, in no order. */
function tracesOf(text: string, { plain, base64 }: KeyRuns): Array<[number, number]> {
	return readings(text).flatMap(({ text: read, origin }) => {
		const found = [...rangesOf(foldCase(read), plain), ...rangesOf(asBase64(read), base64)];
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
	const runs = keyRunsOf(secret);
	// No reading is longer than the text (decoding only shortens it), so a shorter text holds no run.
	if (runs === undefined || text.length < runs.plain.size) return text;
	const found = tracesOf(text, runs);
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
	// A list or object with nothing to hide is returned as it is, not copied: a copy made by
	// Object.fromEntries keeps its fields out of line, about 40 bytes more per output item.
	const walk = (entry: unknown): unknown => {
		if (typeof entry === 'string') return hide(entry);
		if (typeof entry === 'number') return hide(String(entry)) === String(entry) ? entry : marker;
		if (Array.isArray(entry)) {
			const shown = entry.map(walk);
			return shown.some((inner, index) => inner !== entry[index]) ? shown : entry;
		}
		if (entry === null || typeof entry !== 'object') return entry;
		const fields = Object.entries(entry);
		const shown = fields.map(([name, inner]) => [hide(name), walk(inner)] as const);
		const changed = shown.some(([name, inner], index) => name !== fields[index][0] || inner !== fields[index][1]);
		return changed ? Object.fromEntries(shown) : entry;
	};
	return walk(value);
}
