import type { Deadline } from './deadline';
import { DeadlineExceeded } from './deadline';

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

export function isBodyStream(body: unknown): body is BodyStream {
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
