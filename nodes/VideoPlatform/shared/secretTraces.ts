/**
 * Redaction, in one place: finds what the API key or the webhook secret leaves in a text, so that
 * neither node shows it (no regular expression is made from the secret: its runs are looked up in
 * a set), and makes text from outside the node (the platform, whatever answered at the Base URL,
 * items) safe to show.
 */

const ESCAPE = 0x1b;

/** Any run of the key this long is hidden, so that no part of it worth guessing from shows. */
const HIDDEN_RUN = 8;

/** Base64 writes 8 characters of the key as at least 10 digits of their own, whatever the alignment. */
const HIDDEN_BASE64_RUN = 10;

/**
 * A character that shows nothing: Unicode's default-ignorable code points (format controls,
 * variation selectors, tags, fillers, byte-order mark, and those not assigned yet) and control
 * characters. An echo may slip any of them into the key.
 */
const INVISIBLE_CHARACTER = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/u;

const INVISIBLE_RUNS = new RegExp(`${INVISIBLE_CHARACTER.source}+`, 'gu');

/**
 * A text read another way; `origin[k]` is where its k-th code unit began in the text and `ends[k]`
 * where what it was read from ended (both null if the text is unchanged). A trace's end is the
 * end of its last unit, not the start of the next one: a terminal's reading skips what follows an
 * unended ANSI sequence, and a browser shows it.
 */
interface Decoded {
	text: string;
	origin: Int32Array | null;
	ends: Int32Array | null;
}

const UNCHANGED = (text: string): Decoded => ({ text, origin: null, ends: null });

/** Builds a reading of `source` piece by piece, remembering where each code unit came from. */
class Reading {
	private readonly parts: string[] = [];
	private readonly origin: Int32Array;
	private readonly ends: Int32Array;
	private length = 0;

	constructor(private readonly source: string) {
		this.origin = new Int32Array(source.length);
		this.ends = new Int32Array(source.length);
	}

	keep(from: number, to: number): void {
		this.parts.push(this.source.slice(from, to));
		for (let at = from; at < to; at++) this.read(at, at + 1);
	}

	put(text: string, from: number, to: number): void {
		this.parts.push(text);
		for (let unit = 0; unit < text.length; unit++) this.read(from, to);
	}

	private read(from: number, to: number): void {
		this.origin[this.length] = from;
		this.ends[this.length++] = to;
	}

	done(): Decoded {
		return { text: this.parts.join(''), origin: this.origin.subarray(0, this.length), ends: this.ends.subarray(0, this.length) };
	}
}

/** A control sequence's last character, from @ to ~; the characters before it are below @. */
const isFinalByte = (code: number) => code >= 0x40 && code <= 0x7e;

/**
 * The length of the ANSI escape sequence at `at`, else 0: ESC and one character, or ESC [ up to its
 * final byte; either cut short by the end of the text.
 */
function escapeSequenceLength(text: string, at: number): number {
	if (text.charCodeAt(at) !== ESCAPE) return 0;
	if (text[at + 1] !== '[') return Math.min(at + 2, text.length) - at;
	let end = at + 2;
	while (end < text.length && !isFinalByte(text.charCodeAt(end))) end++;
	return Math.min(end + 1, text.length) - at;
}

/**
 * The text as a person sees it: without invisible characters and, where `inTerminal`, without
 * the ANSI sequences a terminal hides (a browser shows what follows their ESC).
 */
function visible(text: string, inTerminal: boolean): Decoded {
	INVISIBLE_RUNS.lastIndex = 0;
	let hidden = INVISIBLE_RUNS.exec(text);
	if (!hidden) return UNCHANGED(text);
	const reading = new Reading(text);
	let shownFrom = 0;
	for (; hidden; hidden = INVISIBLE_RUNS.exec(text)) {
		reading.keep(shownFrom, hidden.index);
		shownFrom = hidden.index + hidden[0].length;
		// Only a run's last character can start a sequence that reaches beyond the run.
		if (inTerminal) shownFrom += Math.max(escapeSequenceLength(text, shownFrom - 1) - 1, 0);
		INVISIBLE_RUNS.lastIndex = shownFrom;
	}
	reading.keep(shownFrom, text.length);
	return reading.done();
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
const LAST_CODE_POINT = 0x10ffff;

const codePointOr = (code: number) => (code > LAST_CODE_POINT ? NO_CHARACTER : code);

const isHex = (code: number) => (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 102);

/** The number written in `digits` hex digits at `at`; past the text's end, charCodeAt gives NaN, no digit. */
function hexAt(text: string, at: number, digits: number): number | undefined {
	for (let i = at; i < at + digits; i++) if (!isHex(text.charCodeAt(i))) return undefined;
	return parseInt(text.slice(at, at + digits), 16);
}

/** How many continuation bytes a UTF-8 lead byte announces, and the smallest code point they may write. */
function utf8Lead(byte: number): [number, number] | undefined {
	if (byte >= 0xc2 && byte <= 0xdf) return [1, 0x80];
	if (byte >= 0xe0 && byte <= 0xef) return [2, 0x800];
	if (byte >= 0xf0 && byte <= 0xf4) return [3, 0x10000];
	return undefined;
}

/**
 * A byte escape (`%e2`, `\xE2`) at `at`: a whole UTF-8 character where the bytes after it in the
 * same escape spell one (an invisible one hides the key as well as a plain one), else the byte.
 */
function byteEscapeAt(text: string, at: number, prefix: string): [number, number] | undefined {
	const size = prefix.length + 2;
	const first = hexAt(text, at + prefix.length, 2);
	if (first === undefined) return undefined;
	const lead = utf8Lead(first);
	if (lead === undefined) return [first, size];
	const [continuations, smallest] = lead;
	let code = first & (0x3f >> continuations);
	for (let next = 1; next <= continuations; next++) {
		const from = at + next * size;
		const byte = text.startsWith(prefix, from) ? hexAt(text, from + prefix.length, 2) : undefined;
		if (byte === undefined || (byte & 0xc0) !== 0x80) return [first, size];
		code = (code << 6) | (byte & 0x3f);
	}
	const isCharacter = code >= smallest && code <= LAST_CODE_POINT && (code < 0xd800 || code > 0xdfff);
	return isCharacter ? [code, size * (continuations + 1)] : [first, size];
}

const JSON_SHORT_ESCAPES: Record<string, number> = { '"': 34, '\\': 92, '/': 47, "'": 39, b: 8, f: 12, n: 10, r: 13, t: 9 };

/** The code point an escape at `at` stands for and the escape's length, or undefined if none starts there. */
function escapeAt(text: string, at: number): [number, number] | undefined {
	const first = text[at];
	if (first === '%') return byteEscapeAt(text, at, '%');
	if (first === '\\') {
		const kind = text.charAt(at + 1);
		if (kind === 'u' || kind === 'U') {
			const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(text.slice(at + 2, at + 10));
			if (braced) return [codePointOr(parseInt(braced[1], 16)), braced[0].length + 2];
			const code = hexAt(text, at + 2, 4);
			return code === undefined ? undefined : [code, 6];
		}
		if (kind === 'x' || kind === 'X') return byteEscapeAt(text, at, `\\${kind}`);
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
		return [codePointOr(code), whole.length];
	}
	return undefined;
}

const ESCAPE_STARTS = /[%\\&]/g;

/** The text with its escapes undone. */
function unescaped(text: string): Decoded {
	ESCAPE_STARTS.lastIndex = 0;
	let reading: Reading | undefined;
	let shownFrom = 0;
	for (let start = ESCAPE_STARTS.exec(text); start; start = ESCAPE_STARTS.exec(text)) {
		const escape = escapeAt(text, start.index);
		if (escape === undefined) continue;
		const [code, size] = escape;
		reading ??= new Reading(text);
		reading.keep(shownFrom, start.index);
		reading.put(String.fromCodePoint(code), start.index, start.index + size);
		shownFrom = start.index + size;
		ESCAPE_STARTS.lastIndex = shownFrom;
	}
	if (!reading) return UNCHANGED(text);
	reading.keep(shownFrom, text.length);
	return reading.done();
}

/** `next` read from `first`'s text, with its positions in the text `first` was read from. */
function readOn(first: Decoded, next: (text: string) => Decoded): Decoded {
	const second = next(first.text);
	if (!second.origin || !second.ends || !first.origin || !first.ends) return second.origin ? second : { ...first, text: second.text };
	const { origin, ends } = second;
	for (let at = 0; at < origin.length; at++) {
		origin[at] = first.origin[origin[at]];
		ends[at] = first.ends[ends[at] - 1];
	}
	return { text: second.text, origin, ends };
}

/**
 * The text's escapes undone, and what shows of it then: in a terminal and, where an escape stood
 * for an ESC, in a browser too, which shows the character after it. None where the text holds no escape.
 */
function decodedOnce(reading: Decoded): Decoded[] {
	const decoded = readOn(reading, unescaped);
	if (decoded.text === reading.text) return [];
	const shown = [readOn(decoded, (text) => visible(text, true))];
	if (decoded.text.includes('\u001b')) shown.push(readOn(decoded, (text) => visible(text, false)));
	return shown;
}

/**
 * What shows of the text in a terminal, in a browser, with its escapes undone and undone twice
 * (`%2541` for `A`): a key may hold what looks like an escape, or an echo may encode what was
 * already encoded.
 */
function readings(text: string): Decoded[] {
	const shown = visible(text, true);
	const once = decodedOnce(shown);
	const all = [shown, ...once, ...once.flatMap(decodedOnce)];
	if (text.includes('\u001b')) all.push(visible(text, false));
	return all;
}

/**
 * A code point in one letter case, as simple case folding has it (K and Kelvin's K, s and
 * long s, I and dotless ı): its upper case's lower case, else its lower case, where either is
 * as long as it is; Turkish İ, whose lower case adds a dot above, becomes i.
 */
function foldCodePoint(character: string): string {
	const lower = character.toLowerCase();
	const candidates = [character.toUpperCase().toLowerCase(), lower, lower.replace(/\p{M}/gu, '')];
	// As long is one code point too: no case mapping leads out of a letter's plane.
	return candidates.find((folded) => folded.length === character.length) ?? character;
}

/** Folded BMP code units, filled as they are met (0: not yet); other code points in a map. */
const foldedUnits = new Uint16Array(0x10000);
const foldedAstral = new Map<number, string>();

function foldedUnit(code: number): number {
	if (foldedUnits[code] === 0) foldedUnits[code] = foldCodePoint(String.fromCharCode(code)).charCodeAt(0);
	return foldedUnits[code];
}

function foldedAstralCodePoint(character: string): string {
	const code = character.codePointAt(0) ?? 0;
	let folded = foldedAstral.get(code);
	if (folded === undefined) {
		folded = foldCodePoint(character);
		foldedAstral.set(code, folded);
	}
	return folded;
}

const PLUS = 0x2b;
const SPACE = 0x20;

/** Joins code units into a string, in chunks that fit in a call's arguments. */
function textOf(units: Uint16Array): string {
	let text = '';
	for (let from = 0; from < units.length; from += 8192) text += String.fromCharCode(...units.subarray(from, from + 8192));
	return text;
}

/**
 * Letters in one case, and `+` as a space, as forms write it. Each code point keeps its length,
 * so that positions in the folded text are positions in the text.
 */
function foldCase(text: string): string {
	if (!/[^\0-\x7f]/.test(text)) return text.toLowerCase().replace(/\+/g, ' ');
	const units = new Uint16Array(text.length);
	for (let at = 0; at < text.length; at++) {
		const code = text.charCodeAt(at);
		const pairs = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00;
		if (!pairs) {
			units[at] = code === PLUS ? SPACE : foldedUnit(code);
			continue;
		}
		const folded = foldedAstralCodePoint(text.slice(at, at + 2));
		units[at] = folded.charCodeAt(0);
		units[++at] = folded.charCodeAt(1);
	}
	return textOf(units);
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
// Read once: a global looked up in the hot loop costs many times the multiplication where
// the code runs in a separate global context (Jest's vm contexts do).
const { imul } = Math;
const LOOKED_UP_BITS = 0x3fffffff;

function hashOf(text: string): number {
	let hash = 0;
	for (let i = 0; i < text.length; i++) hash = (imul(hash, HASH_BASE) + text.charCodeAt(i)) | 0;
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
 * bytes, without the digits it shares with its neighbours. Counted in bytes, not characters:
 * a secret of fewer than 8 characters but 8 or more UTF-8 bytes has runs of 10 digits too.
 */
function base64Runs(key: string): Runs {
	const bytes = Buffer.from(key, 'utf8');
	const digits = [0, 1, 2].map((offset) =>
		Buffer.concat([Buffer.alloc(offset), bytes])
			.toString('base64')
			.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)),
	);
	return runsOf(digits, HIDDEN_BASE64_RUN);
}

/** Where in `text` a run of `size` characters from `runs` is, merged into [start, end) ranges. */
function rangesOf(text: string, { size, texts, hashes }: Runs): Array<[number, number]> {
	const ranges: Array<[number, number]> = [];
	if (texts.size === 0) return ranges;
	let top = 1;
	for (let i = 1; i < size; i++) top = imul(top, HASH_BASE);
	let hash = 0;
	for (let end = 0; end < text.length; end++) {
		if (end >= size) hash = (hash - imul(text.charCodeAt(end - size), top)) | 0;
		hash = (imul(hash, HASH_BASE) + text.charCodeAt(end)) | 0;
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
 * The key as JSON escapes it. Decoding the text finds it too, except where the key itself holds what
 * reads as another escape (`%00` inside a key whose `"` came JSON-escaped): decoding then changes
 * both, so this form is looked for as it is. A percent-encoded key needs no such form: its escapes
 * decode to the key's own characters and nothing else (checked over generated keys full of escapes).
 */
const jsonEscaped = (key: string) => JSON.stringify(key).slice(1, -1);

/** The secret's runs, or undefined for a secret of invisible characters only, which nothing shows. */
function keyRunsOf(secret: string): KeyRuns | undefined {
	if (lastKeyRuns?.secret !== secret) {
		const key = visible(secret, false).text;
		const plain = runsOf([key, jsonEscaped(key)].map(foldCase), Math.min(HIDDEN_RUN, key.length));
		lastKeyRuns = { secret, plain, base64: base64Runs(key) };
	}
	return lastKeyRuns.plain.size === 0 ? undefined : lastKeyRuns;
}

/** Where in `text` the secret shows, as [start, end) ranges of `text`, in no order. */
function tracesOf(text: string, { plain, base64 }: KeyRuns): Array<[number, number]> {
	return readings(text).flatMap(({ text: read, origin, ends }) => {
		const found = [...rangesOf(foldCase(read), plain), ...rangesOf(asBase64(read), base64)];
		return origin && ends ? found.map(([start, end]): [number, number] => [origin[start], ends[end - 1]]) : found;
	});
}

/**
 * Replaces each trace of the secret with `marker`: any run of 8 or more of its characters (a
 * shorter secret whole), in any letter case (Turkish İ and ı, Kelvin's K too), percent-encoded,
 * JSON-, \\x- or HTML-escaped (also twice, or mixed), in base64 or base64url, or with invisible
 * characters (any of INVISIBLE_CHARACTER, also escaped) or ANSI sequences slipped in. Time linear in the text; the secret's runs are made once per secret. May throw
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

// Text from outside the node, made safe to show.

const MAX_QUOTED_LENGTH = 300;

/** What replaces the key in errors; the node's output says more (KEY_REMOVED_MARKER). */
const REDACTED = '[redacted]';

/** Shown instead of a text that the redaction itself could not handle: never the text. */
const UNCHECKABLE = '[redacted: this text could not be checked for the key]';

/** "Bearer" and a token after it, as a person reads them: invisible characters in the word and between the two count for nothing. */
const BEARER_TOKEN = new RegExp(
	`\\b${[...'Bearer'].join(`${INVISIBLE_CHARACTER.source}*`)}(?:\\s|${INVISIBLE_CHARACTER.source})+(?!\\[redacted\\])\\S+`,
	'giu',
);

/** Removes the key however echoed, and any Bearer token, from text from outside; never throws, hides what it cannot check. */
export function redact(text: string, secret: string): string {
	try {
		return hideSecret(String(text), String(secret ?? ''), REDACTED).replace(BEARER_TOKEN, 'Bearer [redacted]');
	} catch {
		return UNCHECKABLE;
	}
}

/** What replaces the key in the node's output. */
export const KEY_REMOVED_MARKER = '[API key removed by the node]';


/** Drops ANSI escape sequences and turns other control characters (CR, LF, ...) into spaces. */
export function stripControlCharacters(text: string): string {
	let out = '';
	for (let i = 0; i < text.length; i++) {
		const sequence = escapeSequenceLength(text, i);
		if (sequence > 0) {
			i += sequence - 1;
			continue;
		}
		const code = text.charCodeAt(i);
		const isControl = code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0x2028 || code === 0x2029;
		out += isControl ? ' ' : text[i];
	}
	return out.replace(/ {2,}/g, ' ').trim();
}

/**
 * n8n's editor shows an error's message and description, and hints, as HTML (cleaned, but links and
 * images survive), and the panel's header shows the message as plain text, where an HTML escape
 * such as `&lt;` would show as typed. So no escape: the angle brackets, without which no tag can
 * begin, become the look-alikes ‹ › (U+2039, U+203A), which no Unicode normalisation turns back
 * into < >. Quotes and ampersands stay: outside a tag they make no markup.
 */
export function withoutMarkup(text: string): string {
	return text.replace(/</g, '\u2039').replace(/>/g, '\u203A');
}

/** Safe to show: redacted before and after control characters go (an escape inside the key hides it), no markup, then cut. */
export function quotable(text: string, secret: string, maxLength = MAX_QUOTED_LENGTH): string {
	const clean = withoutMarkup(redact(stripControlCharacters(redact(text, secret)), secret));
	return clean.length > maxLength ? `${clean.slice(0, maxLength)}…` : clean;
}

function firstString(...values: unknown[]): string | undefined {
	return values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

function wordsOf(body: unknown): string {
	if (typeof body === 'string') {
		try {
			return wordsOf(JSON.parse(body) as unknown);
		} catch {
			return body;
		}
	}
	if (body && typeof body === 'object') {
		const data = body as Record<string, unknown>;
		const nested = (data.error && typeof data.error === 'object' ? data.error : {}) as Record<string, unknown>;
		const found = firstString(data.message, data.error, nested.message, data.detail, data.title, data.error_description);
		return found ?? JSON.stringify(body);
	}
	return '';
}

/** The platform's words from an error body (its shape is unpublished: common fields, else the raw text), safe to show. */
export function platformMessage(body: unknown, secret: string): string {
	return quotable(wordsOf(body), secret);
}
