/**
 * The most the trigger reads of a body: n8n's default N8N_PAYLOAD_SIZE_MAX (16, in MiB), the limit
 * n8n applies where it reads a body itself. Node code cannot read n8n's settings, so this stays
 * 16 MiB whatever N8N_PAYLOAD_SIZE_MAX is set to.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export const BODY_TOO_LARGE = 'tooLarge';
export const BODY_UNREADABLE = 'unreadable';
type BodyProblem = typeof BODY_TOO_LARGE | typeof BODY_UNREADABLE;

/**
 * The request as n8n hands it to webhook(): Node's request stream, with the raw body when n8n
 * read it. (Written out: n8n Cloud's rules let a node import no Node module but crypto.)
 */
export interface WebhookRequest {
	headers: Record<string, string | string[] | undefined>;
	/** Typed as n8n-workflow types it: a Buffer, never text. */
	rawBody?: Buffer;
	/** The Content-Type's charset as n8n read it (lower-cased), which n8n decodes a body it parses with. */
	encoding?: string;
	readonly readableEnded: boolean;
	readonly destroyed: boolean;
	on(event: 'data', listener: (chunk: Buffer) => void): this;
	on(event: 'end' | 'error' | 'close', listener: () => void): this;
	off(event: 'data', listener: (chunk: Buffer) => void): this;
	off(event: 'end' | 'error' | 'close', listener: () => void): this;
	resume(): this;
}

/**
 * n8n reads every body but a multipart one before webhook() at version 1; from version 1.1 it
 * reads only the types it parses (JSON, text/plain, forms, XML) and leaves the others, a
 * `+json` type and a missing Content-Type among them, unread. A multipart body it never keeps
 * raw, at any version, so the trigger does not read one either (version 1 gave it no raw body).
 */
function leftUnread(request: WebhookRequest): boolean {
	if (request.rawBody !== undefined) return false;
	const type = String(request.headers['content-type'] ?? '').split(';')[0].toLowerCase();
	return !type.startsWith('multipart/');
}

/** Reads the stream to its end, stopping past `limit` bytes; settles on an error or an early close too. */
function readAll(request: WebhookRequest, limit: number): Promise<Buffer | BodyProblem> {
	const chunks: Buffer[] = [];
	let size = 0;
	return new Promise((resolve) => {
		const settle = (result: Buffer | BodyProblem) => {
			request.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onFailure);
			// Whatever is left (an over-long body's rest) is let through unread, so that the answer can be sent.
			request.resume();
			resolve(result);
		};
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) settle(BODY_TOO_LARGE);
			else chunks.push(chunk);
		};
		const onEnd = () => settle(Buffer.concat(chunks, size));
		const onFailure = () => settle(BODY_UNREADABLE);
		// A request closed before its end (the sender went away) never ends: a failure too. A close
		// after the end is not heard: settling on the end stopped listening.
		request.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onFailure);
	});
}

/** The body with its gzip or deflate undone, counting the decoded bytes against `limit`. */
async function decoded(encoded: Buffer, format: 'gzip' | 'deflate', limit: number): Promise<Buffer | BodyProblem> {
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
		for await (const chunk of new Blob([new Uint8Array(encoded)]).stream().pipeThrough(new DecompressionStream(format))) {
			size += chunk.length;
			if (size > limit) return BODY_TOO_LARGE;
			chunks.push(chunk);
		}
	} catch {
		return BODY_UNREADABLE;
	}
	return Buffer.concat(chunks, size);
}

/**
 * The raw body as version 1 had it from n8n: n8n's own when it read it, else read here from the
 * request's stream up to MAX_BODY_BYTES, undoing a gzip or deflate Content-Encoding as n8n does
 * (those two only, written exactly so). Undefined for a multipart body, which n8n keeps no raw body of.
 */
export async function rawBodyOf(request: WebhookRequest, limit = MAX_BODY_BYTES): Promise<Buffer | undefined | BodyProblem> {
	if (!leftUnread(request)) return request.rawBody;
	const encoding = request.headers['content-encoding'];
	const format = encoding === 'gzip' || encoding === 'deflate' ? encoding : undefined;
	// Unencoded, the length the sender declared tells an over-long body before reading it.
	if (!format && Number(request.headers['content-length']) > limit) return BODY_TOO_LARGE;
	if (request.destroyed || request.readableEnded) return BODY_UNREADABLE;
	// n8n limits the decoded bytes only; a compressed body is never twice the size of its content.
	const body = await readAll(request, format ? 2 * limit : limit);
	return format && Buffer.isBuffer(body) ? await decoded(body, format, limit) : body;
}
