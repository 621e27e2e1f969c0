import type { NodeApiError } from 'n8n-workflow';

import type { FailedRequest } from './errors';
import { apiError, timesSent } from './errors';
import { IN_API_CREDENTIAL } from '../shared/credentials';

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

interface NetworkFailure {
	code: string;
	message: string;
}

/** The low-level error, wherever the HTTP layer nested it. Codes may have digits (ERR_SSL_TLSV13_…). */
function networkFailure(error: unknown): NetworkFailure | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code, message } = current as { code?: unknown; message?: unknown };
		if (typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)) return { code, message: String(message) };
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/**
 * OpenSSL's reason for a failed TLS connection, e.g. "wrong version number". Node puts it in the
 * code (ERR_SSL_…) or, for EPROTO (https:// to a plain http:// port, for one), only in the message.
 */
function tlsFailureReason({ code, message }: NetworkFailure): string | undefined {
	if (code.startsWith('ERR_SSL_')) return code.slice('ERR_SSL_'.length).toLowerCase().replace(/_/g, ' ');
	if (code === 'EPROTO') return /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1];
	return undefined;
}

/**
 * Ends of OpenSSL reasons that only a handshake gives, before the request is sent (the prefix,
 * such as "sslv3 " or "tlsv1 ", varies). Any other TLS failure, such as "decryption failed or bad
 * record mac" or "record overflow" in the records that carry the request and its answer, may come
 * after the request went; an unknown one counts as such too, since a wrong "nothing was sent"
 * invites sending a second room, while a wrong "may have" costs only a look at the platform.
 */
const HANDSHAKE_ONLY_REASONS = [
	'wrong version number',
	'unsupported protocol',
	'no protocols available',
	'alert handshake failure',
	'alert protocol version',
	'alert certificate required',
	'alert bad certificate',
	'alert unknown ca',
	'alert certificate unknown',
	'alert unsupported certificate',
	'alert insufficient security',
];

function isHandshakeOnly(reason: string): boolean {
	return HANDSHAKE_ONLY_REASONS.some((handshake) => reason.endsWith(handshake));
}

const CHECK_REACHABLE = `Check the Base URL ${IN_API_CREDENTIAL}, and that n8n can reach that address.`;

/** Why nothing reached the platform, and what to check; undefined when the request may have arrived. */
function whyNotSent(failure: NetworkFailure): { reason: string; hint: string } | undefined {
	const known = NOT_SENT_REASONS[failure.code];
	if (known) return { reason: known, hint: CHECK_REACHABLE };
	const tls = tlsFailureReason(failure);
	if (tls === undefined || !isHandshakeOnly(tls)) return undefined;
	if (tls.endsWith('certificate required')) {
		return {
			reason: 'the server asks for a client certificate, which the node does not send',
			hint: 'Use a Base URL of the platform that does not require a client certificate (mutual TLS); the node cannot present one.',
		};
	}
	const reason = `the TLS handshake failed (${tls})`;
	if (tls === 'wrong version number') {
		return { reason, hint: `Is the Base URL https:// for a server that speaks plain http://? ${CHECK_REACHABLE}` };
	}
	if (tls.endsWith('alert handshake failure')) {
		return {
			reason,
			hint: `The server may ask for a client certificate, which the node does not send, or accept no TLS version or cipher that n8n offers. ${CHECK_REACHABLE}`,
		};
	}
	return { reason, hint: CHECK_REACHABLE };
}

export function mayHaveBeenProcessed(failed: FailedRequest): string {
	if (failed.safe) return `The request only reads, so it changed nothing; it ${timesSent(failed)}. Run this item again later.`;
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

/** The connection broke after the request may have gone (a reset, a closed pipe): worth a second try for a read. */
export function isLostAnswer(error: unknown): boolean {
	const code = networkFailure(error)?.code;
	return code !== undefined && code in MAYBE_SENT_REASONS;
}

/** A request that got no HTTP answer at all. Only the error code is kept, never the error. */
export function noAnswerError(failed: FailedRequest, error: unknown, deadlineMs: number): NodeApiError {
	const failure = networkFailure(error);
	const code = failure?.code;
	if (code && TIMEOUT_CODES.has(code)) return timeoutError(failed, deadlineMs);
	const notSent = failure && whyNotSent(failure);
	if (notSent) {
		// A read sent before and now unreachable: the earlier tries went out, and changed nothing.
		const before = failed.safe && failed.tries > 1 ? ` It was sent ${failed.tries - 1 === 1 ? 'once' : `${failed.tries - 1} times`} before and, since it only reads, changed nothing.` : '';
		return apiError(
			failed,
			null,
			`Cannot reach the base URL ${failed.baseUrl}: ${notSent.reason}`,
			`${before ? 'Nothing was sent this time.' : 'Nothing was sent.'}${before} ${notSent.hint}`,
		);
	}
	const tls = failure && tlsFailureReason(failure);
	const reason =
		(code && MAYBE_SENT_REASONS[code]) ??
		(tls ? `a TLS error (${tls})` : code ? `network error ${code}` : 'network error');
	return apiError(
		failed,
		null,
		`The connection to ${failed.baseUrl} broke before an answer came: ${reason}`,
		mayHaveBeenProcessed(failed),
	);
}
