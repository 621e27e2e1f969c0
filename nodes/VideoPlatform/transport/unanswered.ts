import type { NodeApiError } from 'n8n-workflow';

import type { FailedRequest } from './errors';
import { apiError } from './errors';

/** Failures before the request left n8n: nothing reached the platform. */
const NOT_SENT_REASONS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found (DNS)',
	EAI_AGAIN: 'the host name could not be looked up (DNS)',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
	DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
	SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate is not trusted (self-signed chain)",
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
	ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another host name",
};

/** Failures that can come after the platform got the request. */
const MAYBE_SENT_REASONS: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	EPIPE: 'the connection was closed',
};

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED']);

/** The low-level error code, wherever the HTTP layer nested it. */
function networkCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

function mayHaveBeenProcessed(failed: FailedRequest): string {
	const done = failed.creates ? `created the ${failed.creates}` : 'processed the request';
	return `The platform may have ${done}; it was not sent again. Check the platform before you run this item again.`;
}

export function timeoutError(failed: FailedRequest, deadlineMs: number): NodeApiError {
	return apiError(
		failed,
		null,
		`No complete answer from ${failed.baseUrl} within ${Number((deadlineMs / 1000).toFixed(1))} s (timeout)`,
		mayHaveBeenProcessed(failed),
	);
}

export function cutOffError(failed: FailedRequest, status: number): NodeApiError {
	return apiError(
		failed,
		String(status),
		`The platform's answer (HTTP ${status}) was cut off before its end`,
		mayHaveBeenProcessed(failed),
	);
}

export function tooLargeError(failed: FailedRequest, status: number, maxBytes: number): NodeApiError {
	const megabytes = Math.round(maxBytes / (1024 * 1024));
	return apiError(
		failed,
		String(status),
		`The platform's answer (HTTP ${status}) is larger than ${megabytes} MB, the most the node accepts`,
		`${mayHaveBeenProcessed(failed)} An answer this large is not what the API sends: check that the Base URL is the platform's API.`,
	);
}

/** A request that got no HTTP answer at all. Only the error code is kept, never the error. */
export function noAnswerError(failed: FailedRequest, error: unknown, deadlineMs: number): NodeApiError {
	const code = networkCode(error);
	if (code && TIMEOUT_CODES.has(code)) return timeoutError(failed, deadlineMs);
	const notSent = code ? NOT_SENT_REASONS[code] : undefined;
	if (notSent) {
		return apiError(
			failed,
			null,
			`Cannot reach the base URL ${failed.baseUrl}: ${notSent}`,
			'Nothing was sent. Check the Base URL in the Video Platform API credential, and that n8n can reach that address.',
		);
	}
	const reason = (code && MAYBE_SENT_REASONS[code]) ?? (code ? `network error ${code}` : 'network error');
	return apiError(
		failed,
		null,
		`The connection to ${failed.baseUrl} broke before an answer came: ${reason}`,
		mayHaveBeenProcessed(failed),
	);
}
