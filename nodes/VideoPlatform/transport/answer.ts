import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../shared/nesting';
import type { Outcome } from './outcome';
import type { Deadline } from './stop';
import { DeadlineExceeded } from './stop';

/**
 * How reading ended: `whole`; `overflowed` (longer than allowed, `text` holds its start);
 * `cut-off` (the connection broke or the server stopped before the end); `deadline`;
 * `undecodable` (the HTTP client's decompression of a gzip, deflate, br or zstd body failed).
 */
export interface ReadAnswer {
	outcome: 'whole' | 'overflowed' | 'cut-off' | 'deadline' | 'undecodable';
	text: string;
}

/** Node's zlib, Brotli and Zstandard decoders' error codes (e.g. Z_DATA_ERROR, ERR__ERROR_FORMAT_PADDING_1). */
function isDecompressionError(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === 'string' && /^(Z_|ERR__ERROR_|ZSTD_error_)/.test(code);
}

type BodyStream = AsyncIterable<unknown> & { destroy: (error?: Error) => void };

function isBodyStream(body: unknown): body is BodyStream {
	return (
		body !== null &&
		typeof body === 'object' &&
		Symbol.asyncIterator in body &&
		typeof (body as { destroy?: unknown }).destroy === 'function'
	);
}

/** Throws the rest of an answer away without reading it. */
export function discardAnswer(body: unknown): void {
	if (isBodyStream(body)) body.destroy();
}

function asBuffer(chunk: unknown): Buffer {
	return Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8');
}

/**
 * Reads a (decoded) answer up to `maxBytes`, and no longer than the request's deadline. What
 * comes after `maxBytes` is never read, so a small compressed answer cannot grow into memory.
 */
export async function readAnswer(body: unknown, maxBytes: number, deadline: Deadline): Promise<ReadAnswer> {
	if (!isBodyStream(body)) {
		const buffer = body === undefined || body === null ? Buffer.alloc(0) : asBuffer(body);
		const outcome = buffer.length > maxBytes ? 'overflowed' : 'whole';
		return { outcome, text: buffer.subarray(0, maxBytes).toString('utf8') };
	}
	const chunks: Buffer[] = [];
	let size = 0;
	const stop = () => body.destroy(new DeadlineExceeded());
	deadline.signal.addEventListener('abort', stop, { once: true });
	try {
		if (deadline.signal.aborted) stop();
		for await (const chunk of body) {
			const buffer = asBuffer(chunk);
			if (size + buffer.length > maxBytes) {
				chunks.push(buffer.subarray(0, maxBytes - size));
				body.destroy();
				return { outcome: 'overflowed', text: Buffer.concat(chunks).toString('utf8') };
			}
			size += buffer.length;
			chunks.push(buffer);
		}
		return { outcome: 'whole', text: Buffer.concat(chunks).toString('utf8') };
	} catch (error) {
		const text = Buffer.concat(chunks).toString('utf8');
		if (deadline.expired) return { outcome: 'deadline', text };
		return { outcome: isDecompressionError(error) ? 'undecodable' : 'cut-off', text };
	} finally {
		deadline.signal.removeEventListener('abort', stop);
	}
}

/** Whether a successful answer is a web page rather than what an API sends. */
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

/**
 * What a 2xx answer gives the operation: parsed JSON, or else the text as it came (the API does
 * not state its success body). An answer that cannot be read fails the item rather than pass as
 * a success, and the platform may have acted on the request, so it is not sent again.
 *
 * A gzip body cut short inside intact HTTP framing is inflated by n8n's client without an error,
 * so it cannot be told from a whole one here: requests ask for no compression (Accept-Encoding:
 * identity); from a server that compresses anyway, only a cut answer labelled JSON is caught.
 */
export function decodeSuccess(answer: ReadAnswer, response: { headers?: Record<string, unknown>; statusCode: number }): Outcome {
	const { headers, statusCode: status } = response;
	const encoding = undecodedEncoding(headers?.['content-encoding']);
	if (encoding !== undefined) return { kind: 'undecodable', status, why: 'encoding', encoding };
	if (answer.outcome === 'undecodable') return { kind: 'undecodable', status, why: 'damaged' };
	const contentType = headers?.['content-type'];
	if (isHtmlPage(contentType, answer.text)) return { kind: 'html-page', status };
	const answered = (body: unknown): Outcome => ({ kind: 'answered', response: { statusCode: status, body } });
	// JSON.parse rejects a UTF-8 byte-order mark, which some servers put first.
	const text = answer.text.replace(/^\uFEFF/, '');
	if (text.trim() === '') return answered('');
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return isLabelledJson(contentType) ? { kind: 'undecodable', status, why: 'not-json' } : answered(answer.text);
	}
	// n8n copies and saves items recursively: too deep an answer would crash it later, unexplained.
	return nestsDeeperThan(parsed, MAX_NESTING_DEPTH) ? { kind: 'too-deep', status } : answered(parsed);
}

/** How a 2xx answer ends: read within its size and deadline, then decoded. */
export async function readSuccess(response: IN8nHttpFullResponse, maxBytes: number, deadline: Deadline): Promise<Outcome> {
	const { statusCode: status } = response;
	const answer = await readAnswer(response.body, maxBytes, deadline);
	if (answer.outcome !== 'whole' && deadline.cancelled) return { kind: 'stopped-while-answering' };
	if (answer.outcome === 'deadline') return { kind: 'timeout', deadlineMs: deadline.ms };
	if (answer.outcome === 'cut-off') return { kind: 'cut-off', status };
	if (answer.outcome === 'overflowed') return { kind: 'too-large', status, maxBytes };
	return decodeSuccess(answer, response);
}
