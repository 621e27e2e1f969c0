import type { PlatformResponse } from './request';
import type { RateLimitPolicy } from './pacer';
import { retryDelayMs } from './pacer';
import type { StopReason } from './stop';

/** Every way one request can end: `REACH` says what was sent, `nextStep` whether it goes again, messages.ts the words. */
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

export const REACH: Record<Outcome['kind'], Reach> = {
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
export type RedirectMeaning = 'carried-out' | 'maybe-carried-out' | 'not-carried-out';

export function redirectMeaning(status: number): RedirectMeaning {
	if (status === 303) return 'carried-out';
	return status === 302 ? 'maybe-carried-out' : 'not-carried-out';
}

/** Whether the platform may have acted without the node knowing: its room may exist. */
export function mayHaveActed(outcome: Outcome): boolean {
	if (outcome.kind === 'redirected') return redirectMeaning(outcome.status) !== 'not-carried-out';
	return REACH[outcome.kind] === 'may-have-acted' || (outcome.kind === 'error-status' && outcome.status >= 500);
}

/** Held back by the run's stop, never sent: a run's report looks past these to what really failed. */
export function heldBackByStop(outcome: Outcome): boolean {
	return outcome.kind === 'stopped-before-sending' || outcome.kind === 'stopped-after-429';
}

/** How often one request was refused with 429 so far, and how long it waited for them; the client keeps it. */
export type RateLimitBudget = { refusals: number; waitedMs: number };

/** Every retry decision: only a 429 is sent again (why, and where a safe retry would go: docs/design.md). */
export function nextStep(
	outcome: Outcome,
	budget: Readonly<RateLimitBudget>,
	policy: RateLimitPolicy,
	wallNowMs: number,
): { sendAgainAfterMs: number } | { done: Exclude<Outcome, { kind: 'rate-limited' }> } {
	if (outcome.kind !== 'rate-limited') return { done: outcome };
	const { refusals: retry, waitedMs } = budget;
	const tries = retry + 1;
	const delayMs = retryDelayMs(outcome.retryAfter, retry, policy, wallNowMs);
	// Out of tries: the platform keeps refusing, and the user should hear of it.
	if (retry >= policy.maxRetries) return { done: { kind: 'rate-limit-exhausted', tries, waitedMs, gaveUp: { gaveUp: 'tries' } } };
	// The platform asks for more than one item may wait.
	if (waitedMs + delayMs > policy.maxTotalWaitMs) {
		const gaveUp: RateLimitGiveUp = { gaveUp: 'wait', nextWaitMs: delayMs, maxWaitMs: policy.maxTotalWaitMs };
		return { done: { kind: 'rate-limit-exhausted', tries, waitedMs, gaveUp } };
	}
	return { sendAgainAfterMs: delayMs };
}

/** Network error codes that come before the request left n8n (ERR_INVALID_URL: a URL n8n's client cannot parse). */
const NOT_SENT_CODES = [
	'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL',
	'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID',
] as const;

export type NotSentCode = (typeof NOT_SENT_CODES)[number];

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED']);

type NetworkFailure = { code: string; message: string };

function* causeChain(error: unknown): Generator<Record<string, unknown>> {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
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
