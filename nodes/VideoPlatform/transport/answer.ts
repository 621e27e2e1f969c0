import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../shared/nesting';
import type { Outcome } from './outcome';
import type { Deadline } from './stop';
import { DeadlineExceeded } from './stop';

/** How reading ended; `overflowed` keeps the start, `undecodable` is n8n's client failing to decompress. */
export interface ReadAnswer {
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
		else if (deadline.ended) onDeadline();
		else {
			stopWatching = deadline.onEnd(onDeadline);
			// A 'data' listener does not restart a stream someone paused.
			body.resume?.();
		}
	});
}

/** Reads up to `maxBytes` within the deadline; the rest is never read, so a compressed answer cannot grow into memory. */
export async function readAnswer(body: unknown, maxBytes: number, deadline: Deadline): Promise<ReadAnswer> {
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

export function isHtmlPage(contentType: unknown, text: string): boolean {
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
export function decodeSuccess(answer: ReadAnswer, response: { headers?: Record<string, unknown>; statusCode: number }): Outcome {
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
