import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../shared/nesting';
import type { Deadline, StopReason } from './stop';
import { DeadlineExceeded } from './stop';

// How one request ended (the Outcome), and what decides it: the answer read within its size and
// deadline and decoded, or why no answer came. The client (client.ts) calls it; it calls nothing back.

/** A successful answer: parsed JSON where it is JSON, else the raw text. */
export interface PlatformResponse {
	statusCode: number;
	body: unknown;
}

/** Every way one request can end: `REACH` says what was sent, the client whether it goes again, client.ts the words. */
export type Outcome =
	| { kind: 'answered'; response: PlatformResponse }
	| { kind: 'error-status'; status: number; body: string }
	| { kind: 'rate-limited'; retryAfter: unknown }
	| { kind: 'rate-limit-exhausted'; tries: number; waitedMs: number; gaveUp: RateLimitGiveUp }
	| { kind: 'redirected'; status: number; location: unknown }
	| { kind: 'stopped-before-sending'; reason: StopReason }
	| { kind: 'stopped-after-429'; reason: StopReason }
	| { kind: 'stopped-while-answering' }
	| { kind: 'unreachable'; code: NotSentCode }
	| { kind: 'blocked-by-n8n'; reason: string }
	| { kind: 'handshake-failed'; tls: string }
	| { kind: 'connection-broke'; code?: string; tls?: string }
	| { kind: 'timeout'; deadlineMs: number }
	| { kind: 'cut-off'; status: number }
	| { kind: 'too-large'; status: number; maxBytes: number }
	| { kind: 'undecodable'; status: number; why: UndecodableWhy; label?: string }
	| { kind: 'too-deep'; status: number }
	| { kind: 'html-page'; status: number };

/** Why a 2xx answer could not be read (`label`: the Content-Encoding or charset); see docs/design.md for `inflated-unverified`. */
type UndecodableWhy = 'encoding' | 'damaged' | 'charset' | 'not-in-charset' | 'not-json' | 'inflated-unverified';

/** Every outcome but a success: each fails its item. */
export type Failure = Exclude<Outcome, { kind: 'answered' } | { kind: 'rate-limited' }>;

/** Why an item stopped retrying after 429s: too many tries, or a wait beyond what one item may wait. */
type RateLimitGiveUp = { gaveUp: 'tries' } | { gaveUp: 'wait'; nextWaitMs: number; maxWaitMs: number };

/** What reached the platform: nothing, only 429-refused requests, a request with no answer to say what it did, or an answer. */
type Reach = 'not-sent' | 'refused' | 'may-have-acted' | 'answered';

const REACH: Record<Outcome['kind'], Reach> = {
	answered: 'answered', 'error-status': 'answered', redirected: 'answered',
	'rate-limited': 'refused', 'rate-limit-exhausted': 'refused', 'stopped-after-429': 'refused',
	'stopped-before-sending': 'not-sent', unreachable: 'not-sent', 'blocked-by-n8n': 'not-sent', 'handshake-failed': 'not-sent',
	'stopped-while-answering': 'may-have-acted', 'connection-broke': 'may-have-acted', timeout: 'may-have-acted', 'cut-off': 'may-have-acted',
	'too-large': 'may-have-acted', undecodable: 'may-have-acted', 'too-deep': 'may-have-acted', 'html-page': 'may-have-acted',
};

/**
 * What a redirect says about the POST it answers (RFC 9110 15.4); it is never followed either way.
 * 303 See Other: carried out, the answer is elsewhere (post/redirect/get). 302: web frameworks
 * answer a carried-out POST with it by default (Express, Django, Rails), and a proxy's sign-in or a
 * moved API with it too, so the room may exist. 307 and 308 say the request was not carried out
 * here; 301 means the API moved (an http:// to https:// redirect, usually); other 3xx carry nothing out.
 */
type RedirectMeaning = 'carried-out' | 'maybe-carried-out' | 'not-carried-out';

export function redirectMeaning(status: number): RedirectMeaning {
	if (status === 303) return 'carried-out';
	return status === 302 ? 'maybe-carried-out' : 'not-carried-out';
}

/** Whether the platform may have acted without the node knowing: its room may exist. */
export function mayHaveActed(outcome: Outcome): boolean {
	if (outcome.kind === 'redirected') return redirectMeaning(outcome.status) !== 'not-carried-out';
	return REACH[outcome.kind] === 'may-have-acted' || (outcome.kind === 'error-status' && outcome.status >= 500);
}

/** Network error codes that come before the request left n8n (ERR_INVALID_URL: a URL n8n's client cannot parse). */
const NOT_SENT_CODES = [
	'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL',
	'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID',
] as const;

export type NotSentCode = (typeof NOT_SENT_CODES)[number];

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED']);

type NetworkFailure = { code: string; message: string };

/** At most 5 levels, since a cause may be the error itself. A cause that is not an object is read too: it has no fields, so nothing is found in it. */
function* causeChain(error: unknown): Generator<Record<string, unknown>> {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current; depth++) {
		yield current as Record<string, unknown>;
		current = (current as { cause?: unknown }).cause;
	}
}

/** The low-level error, wherever the HTTP layer nested it. Codes may have digits (ERR_SSL_TLSV13_…). */
function networkFailure(error: unknown): NetworkFailure | undefined {
	for (const { code, message } of causeChain(error)) {
		if (typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)) return { code, message: String(message) };
	}
	return undefined;
}

/** OpenSSL's reason, e.g. "wrong version number": in the code (ERR_SSL_…), or for EPROTO only in the message. */
function tlsFailureReason({ code, message }: NetworkFailure): string | undefined {
	if (code.startsWith('ERR_SSL_')) return code.slice('ERR_SSL_'.length).toLowerCase().replace(/_/g, ' ');
	if (code === 'EPROTO') return /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1];
	return undefined;
}

/** Ends of OpenSSL reasons only a handshake gives, before sending; any other TLS failure may come after (docs/design.md). */
const HANDSHAKE_ONLY_REASONS = [
	'wrong version number', 'unsupported protocol', 'no protocols available', 'alert handshake failure', 'alert protocol version',
	'alert certificate required', 'alert bad certificate', 'alert unknown ca', 'alert certificate unknown', 'alert unsupported certificate',
	'alert insufficient security',
];

/** The error classes of n8n's outbound (SSRF) protection, in @n8n/backend-network (n8n 2.x). */
const SSRF_ERROR_NAMES = new Set(['SsrfBlockedIpError', 'SsrfBlockedHostnameError']);

/** n8n's reason (message, host, address) when its outbound protection refused to send; told by class, not wording. */
function ssrfBlockReason(error: unknown): string | undefined {
	for (const cause of causeChain(error)) {
		const { name, message, hostname, ip } = cause;
		if ((typeof name === 'string' && SSRF_ERROR_NAMES.has(name)) || SSRF_ERROR_NAMES.has(cause.constructor?.name)) {
			const target = [...new Set([hostname, ip])].filter((part): part is string => typeof part === 'string' && part !== '');
			return `${String(message)}${target.length > 0 ? ` (${target.join(', ')})` : ''}`;
		}
	}
	return undefined;
}

/** A request that got no HTTP answer: only the error code, or n8n's reason for refusing, is kept, never the error. */
export function noAnswerOutcome(
	error: unknown,
	deadlineMs: number,
): Extract<Failure, { kind: 'timeout' | 'unreachable' | 'blocked-by-n8n' | 'handshake-failed' | 'connection-broke' }> {
	const blocked = ssrfBlockReason(error);
	if (blocked !== undefined) return { kind: 'blocked-by-n8n', reason: blocked };
	const failure = networkFailure(error);
	const code = failure?.code;
	if (code && TIMEOUT_CODES.has(code)) return { kind: 'timeout', deadlineMs };
	const notSent = NOT_SENT_CODES.find((known) => known === code);
	if (notSent) return { kind: 'unreachable', code: notSent };
	const tls = failure && tlsFailureReason(failure);
	if (tls !== undefined && HANDSHAKE_ONLY_REASONS.some((handshake) => tls.endsWith(handshake))) {
		return { kind: 'handshake-failed', tls };
	}
	return { kind: 'connection-broke', code, tls };
}

/** How reading ended; `overflowed` keeps the start, `undecodable` is n8n's client failing to decompress. */
interface ReadAnswer {
	outcome: 'whole' | 'overflowed' | 'cut-off' | 'deadline' | 'undecodable';
	bytes: Buffer;
}

/** Only the start of an error answer is quoted, so there is no need to read more. */
const MAX_ERROR_ANSWER_BYTES = 64 * 1024;

/** n8n's client answers with a Node readable stream when asked for `encoding: 'stream'`. */
type BodyStream = {
	destroy: (error?: Error) => void;
	on: (event: string, listener: (...args: never[]) => void) => unknown;
	removeListener: (event: string, listener: (...args: never[]) => void) => unknown;
	resume?: () => unknown;
	readableEnded?: boolean;
	destroyed?: boolean;
	errored?: unknown;
};

function isBodyStream(body: unknown): body is BodyStream {
	const stream = body as BodyStream | null;
	return stream !== null && typeof stream === 'object' && typeof stream.destroy === 'function' && typeof stream.on === 'function';
}

export function discardAnswer(body: unknown): void {
	if (isBodyStream(body)) body.destroy();
}

const asBuffer = (chunk: unknown) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8'));

const ignore = () => {};

/** Why reading a stream ended: its end, `maxBytes`, a close before its end, or an error. */
type StreamEnd = { outcome: 'whole' | 'overflowed' | 'cut-off' } | { error: unknown };

/**
 * Events rather than `for await`, whose iterator costs a node that sends many requests measurably
 * more. The deadline ends the read itself: n8n 2.x's client hands over a stream that, while its
 * server is silent, emits nothing even when destroyed, so waiting for its events could be forever.
 */
function readStream(body: BodyStream, maxBytes: number, chunks: Buffer[], deadline: Deadline): Promise<StreamEnd> {
	return new Promise((resolve) => {
		let size = 0;
		const onData = (chunk: unknown) => {
			const buffer = asBuffer(chunk);
			if (size + buffer.length > maxBytes) {
				chunks.push(buffer.subarray(0, maxBytes - size));
				finish({ outcome: 'overflowed' });
				body.destroy();
				return;
			}
			size += buffer.length;
			chunks.push(buffer);
		};
		const onEnd = () => finish({ outcome: 'whole' });
		const onError = (error: unknown) => finish({ error });
		const onClose = () => finish({ outcome: 'cut-off' });
		const onDeadline = () => {
			finish({ error: new DeadlineExceeded() });
			body.destroy(new DeadlineExceeded());
		};
		let stopWatching = ignore;
		// Only the node's own listeners go: n8n's client keeps its own on the same stream.
		const finish = (end: StreamEnd) => {
			body.removeListener('data', onData);
			body.removeListener('end', onEnd);
			body.removeListener('error', onError);
			body.removeListener('close', onClose);
			stopWatching();
			// Late errors of a stream given up on must not become an uncaught 'error'.
			body.on('error', ignore);
			resolve(end);
		};
		body.on('data', onData);
		body.on('end', onEnd);
		body.on('error', onError);
		body.on('close', onClose);
		if (body.readableEnded) finish({ outcome: 'whole' });
		else if (body.errored) finish({ error: body.errored });
		else if (body.destroyed) finish({ outcome: 'cut-off' });
		else {
			// Called at once if the deadline has already ended.
			stopWatching = deadline.onEnd(onDeadline);
			// A 'data' listener does not restart a stream someone paused.
			body.resume?.();
		}
	});
}

/** Reads up to `maxBytes` within the deadline; the rest is never read, so a compressed answer cannot grow into memory. */
async function readAnswer(body: unknown, maxBytes: number, deadline: Deadline): Promise<ReadAnswer> {
	if (!isBodyStream(body)) {
		const buffer = body === undefined || body === null ? Buffer.alloc(0) : asBuffer(body);
		return { outcome: buffer.length > maxBytes ? 'overflowed' : 'whole', bytes: buffer.subarray(0, maxBytes) };
	}
	const chunks: Buffer[] = [];
	const end = await readStream(body, maxBytes, chunks, deadline);
	// Most answers come in one chunk, which needs no copy.
	const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
	if ('outcome' in end) return { outcome: deadline.expired && end.outcome === 'cut-off' ? 'deadline' : end.outcome, bytes };
	if (deadline.expired) return { outcome: 'deadline', bytes };
	// Node's zlib, Brotli and Zstandard decoders' error codes (Z_DATA_ERROR, ERR__ERROR_FORMAT_PADDING_1, ...).
	const code = (end.error as { code?: unknown } | null)?.code;
	return { outcome: typeof code === 'string' && /^(Z_|ERR__ERROR_|ZSTD_error_)/.test(code) ? 'undecodable' : 'cut-off', bytes };
}

function isHtmlPage(contentType: unknown, text: string): boolean {
	if (typeof contentType === 'string' && /\btext\/html\b/i.test(contentType)) return true;
	return /^\s*(<!doctype html|<html[\s>])/i.test(text);
}

/** `application/json` and the `+json` types, such as `application/problem+json`. */
function isLabelledJson(contentType: unknown): boolean {
	return typeof contentType === 'string' && /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType);
}

/** n8n's client drops the header of a coding it decoded, so any coding left (bar identity) was not. */
function undecodedEncoding(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const codings = header.split(',').map((coding) => coding.trim().toLowerCase());
	return codings.some((coding) => coding !== '' && coding !== 'identity') ? header : undefined;
}

/** The charset a Content-Type declares, lowercased (`latin1` from `text/plain; charset="Latin1"`). */
function declaredCharset(contentType: unknown): string | undefined {
	if (typeof contentType !== 'string') return undefined;
	const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
	const charset = (match?.[1] ?? match?.[2])?.trim().toLowerCase();
	return charset === '' ? undefined : charset;
}

const decoders = new Map<string, InstanceType<typeof TextDecoder>>();

/** A strict decoder for a charset label, made once per label; undefined for a label no decoder knows. */
function decoderFor(label: string): InstanceType<typeof TextDecoder> | undefined {
	let decoder = decoders.get(label);
	if (decoder) return decoder;
	try {
		decoder = new TextDecoder(label, { fatal: true });
	} catch {
		return undefined;
	}
	// Labels come from answers: only the few that name a known charset are kept.
	decoders.set(label, decoder);
	return decoder;
}

/** The text of an answer in its declared charset, else UTF-16 by its byte-order mark, else UTF-8 (JSON's). */
function answerText(bytes: Buffer, contentType: unknown): { text: string } | { unknownCharset: string } | { notIn: string } {
	const bom = bytes.length >= 2 ? (bytes[0] << 8) | bytes[1] : 0;
	const label = declaredCharset(contentType) ?? (bom === 0xfeff ? 'utf-16be' : bom === 0xfffe ? 'utf-16le' : 'utf-8');
	const decoder = decoderFor(label);
	if (!decoder) return { unknownCharset: label };
	try {
		return { text: decoder.decode(bytes) };
	} catch {
		return { notIn: decoder.encoding };
	}
}

/** Whether n8n's client decompressed the answer: a whole body whose length is not its Content-Length (docs/design.md). */
function inflatedByClient(answer: ReadAnswer, headers: Record<string, unknown> | undefined, status: number): boolean {
	const length = headers?.['content-length'];
	if (status === 204 || typeof length !== 'string' || !/^\d+$/.test(length.trim())) return false;
	return Number(length) !== answer.bytes.length;
}

/** A 2xx answer's body: JSON, else the text as it came; one inflated by n8n's client must show its end (docs/design.md). */
function decodeSuccess(answer: ReadAnswer, response: { headers?: Record<string, unknown>; statusCode: number }): Outcome {
	const { headers, statusCode: status } = response;
	const encoding = undecodedEncoding(headers?.['content-encoding']);
	if (encoding !== undefined) return { kind: 'undecodable', status, why: 'encoding', label: encoding };
	if (answer.outcome === 'undecodable') return { kind: 'undecodable', status, why: 'damaged' };
	const contentType = headers?.['content-type'];
	const decoded = answerText(answer.bytes, contentType);
	if ('unknownCharset' in decoded) return { kind: 'undecodable', status, why: 'charset', label: decoded.unknownCharset };
	if ('notIn' in decoded) return { kind: 'undecodable', status, why: 'not-in-charset', label: decoded.notIn };
	if (isHtmlPage(contentType, decoded.text)) return { kind: 'html-page', status };
	const inflated = inflatedByClient(answer, headers, status);
	const answered = (body: unknown): Outcome => ({ kind: 'answered', response: { statusCode: status, body } });
	// JSON.parse rejects a byte-order mark, which some servers put first.
	const text = decoded.text.replace(/^\uFEFF/, '');
	const unverified: Outcome = { kind: 'undecodable', status, why: 'inflated-unverified' };
	if (text.trim() === '') return inflated ? unverified : answered('');
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		if (isLabelledJson(contentType)) return { kind: 'undecodable', status, why: 'not-json' };
		return inflated ? unverified : answered(decoded.text);
	}
	if (inflated && typeof parsed === 'number') return unverified;
	// n8n copies and saves items recursively: too deep an answer would crash it later, unexplained.
	return nestsDeeperThan(parsed, MAX_NESTING_DEPTH) ? { kind: 'too-deep', status } : answered(parsed);
}

/** How an answer ends the request: a 2xx read within its size and deadline and decoded, a redirect, an error status. */
export async function readOutcome(response: IN8nHttpFullResponse, maxBytes: number, deadline: Deadline): Promise<Outcome> {
	const { statusCode: status, headers } = response;
	if (status >= 300 && status < 400) {
		discardAnswer(response.body);
		return { kind: 'redirected', status, location: headers?.location };
	}
	if (status < 200 || status >= 300) {
		// Read, not dropped, so that the connection can be reused for the retry.
		const { bytes } = await readAnswer(response.body, MAX_ERROR_ANSWER_BYTES, deadline);
		if (status === 429) return { kind: 'rate-limited', retryAfter: headers?.['retry-after'] };
		const decoded = answerText(bytes, headers?.['content-type']);
		return { kind: 'error-status', status, body: 'text' in decoded ? decoded.text : bytes.toString('utf8') };
	}
	const answer = await readAnswer(response.body, maxBytes, deadline);
	if (answer.outcome !== 'whole' && deadline.cancelled) return { kind: 'stopped-while-answering' };
	if (answer.outcome === 'deadline') return { kind: 'timeout', deadlineMs: deadline.ms };
	if (answer.outcome === 'cut-off') return { kind: 'cut-off', status };
	if (answer.outcome === 'overflowed') return { kind: 'too-large', status, maxBytes };
	return decodeSuccess(answer, response);
}
