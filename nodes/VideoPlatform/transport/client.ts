import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { API_VERSION_PREFIX } from '../platform';
import type { Problem } from '../shared/credentials';
import {
	API_CREDENTIAL,
	apiKeyProblem,
	baseUrlProblem,
	IN_API_CREDENTIAL,
	normalizeApiKey,
	normalizeBaseUrl,
	NOTHING_SENT,
} from '../shared/credentials';
import { MAX_NESTING_DEPTH } from '../shared/nesting';
import { hideSecretInValue, KEY_REMOVED_MARKER, platformMessage, quotable, redact, stripControlCharacters, withoutMarkup } from '../shared/secretTraces';
import type { Failure, NotSentCode, Outcome, PlatformResponse } from './answer';
import { discardAnswer, mayHaveActed, noAnswerOutcome, readOutcome, redirectMeaning } from './answer';
import type { RateLimitPolicy, RateLimitReport, RequestPacer } from './pacer';
import { DEFAULT_RATE_LIMIT_POLICY, PacerRegistry, retryDelayMs, sharedPacers } from './pacer';
import type { Clock, StopReason } from './stop';
import { DeadlineExceeded, RunStop, systemClock } from './stop';

/**
 * A request's life, top to bottom (docs/design.md): the credential, the pacer's turn, the send,
 * the answer read (answer.ts), a 429 sent again, any other end worded as the item's error (below,
 * after the client). The modules it calls never call back.
 */

/** Everything an operation says about a request: method, path after the Base URL (platform.ts) and body. */
interface PlatformRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
}

/** What an operation sends its one item's requests through. */
export interface PlatformRequester {
	request(request: PlatformRequest): Promise<PlatformResponse>;
}

const CREDENTIAL_TYPE = API_CREDENTIAL.type;

/** How long and how large one request may be, and how long it may wait out 429s. */
interface TransportPolicy {
	rateLimit: RateLimitPolicy;
	/** From send to the last byte of the answer. Generous, since a room may take a while. */
	deadlineMs: number;
	/** Of the decoded answer; far above what creating a room returns. */
	maxAnswerBytes: number;
}

/** A clock that does not wait for real, and shorter limits: for tests; with another clock, runs share no pacers. */
interface TransportOptions {
	clock?: Clock;
	policy?: Partial<TransportPolicy>;
}

/** The one way requests reach the platform, one per node run. */
export class PlatformClient {
	/** Read and checked once per run: the credential does not change within it. */
	private credential?: Promise<{ baseUrl: string; apiKey: string; problem?: Problem; data: ICredentialDataDecryptedObject }>;

	/** n8n's getNode() copies the node on every call; it does not change within a run either. */
	private node?: INode;

	private pacer?: RequestPacer;

	private readonly pacers: PacerRegistry;

	private readonly policy: TransportPolicy;

	private readonly clock: Clock;

	/** This run's own 429s (the pacer may be shared) and its waits: under way, since when, wall time waited. */
	private readonly rateLimited = { refused: 0, waiting: 0, since: 0, pausedMs: 0 };

	/** How each failed item's request ended, for the run's report. */
	private readonly failures = new Map<number, Failure>();

	/** Ends this run's waits and sends when the user stops the execution or an item fails the run. */
	readonly stop: RunStop;

	constructor(
		private readonly context: IExecuteFunctions,
		/** What a successful request creates, e.g. "room", to say what may exist after a failure. */
		private readonly creates: string,
		{ clock = systemClock, policy = {} }: TransportOptions = {},
	) {
		this.clock = clock;
		this.pacers = clock === systemClock ? sharedPacers : new PacerRegistry(clock);
		this.policy = { rateLimit: DEFAULT_RATE_LIMIT_POLICY, deadlineMs: 60_000, maxAnswerBytes: 10 * 1024 * 1024, ...policy };
		// An n8n that gives nodes no cancel signal: a stop then ends the run only between requests.
		this.stop = new RunStop(context.getExecutionCancelSignal?.());
	}

	forItem(itemIndex: number): PlatformRequester {
		return { request: async (request) => await this.request(request, itemIndex) };
	}

	async request(request: PlatformRequest, itemIndex: number): Promise<PlatformResponse> {
		const node = (this.node ??= this.context.getNode());
		const reference = node.credentials?.[CREDENTIAL_TYPE];
		// Concurrent first requests share one read, rather than each decrypting the credential.
		this.credential ??= this.context.getCredentials<{ baseUrl?: string; apiKey?: string }>(CREDENTIAL_TYPE, itemIndex).then((data) => {
			const apiKey = normalizeApiKey(data.apiKey);
			const problem = baseUrlProblem(data.baseUrl) ?? apiKeyProblem(apiKey);
			return { baseUrl: normalizeBaseUrl(data.baseUrl), apiKey, problem, data: { ...data } };
		});
		const { baseUrl, apiKey, problem, data } = await this.credential;
		// Nothing is sent with a credential the node refuses.
		if (problem) throw itemError(node, itemIndex, problem.message, problem.description);
		// Lets n8n authenticate with the credential already read, rather than decrypt it again.
		const credentialsDecrypted: ICredentialsDecrypted = { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data };
		const url = `${baseUrl}${request.path}`;
		const failed: FailedRequest = { node, itemIndex, url, baseUrl, secret: apiKey, creates: this.creates };
		// Looked up on the run's first request only: the credential and Base URL do not change within it.
		const pacer = (this.pacer ??= this.pacers.pacerFor(reference?.id ?? undefined, baseUrl, apiKey));
		const { rateLimit } = this.policy;
		let waitedMs = 0;
		for (let refusals = 0; ; refusals++) {
			if (!(await pacer.waitForTurn(this.stop)) || this.stop.reason) {
				throw this.failure({ kind: refusals > 0 ? 'stopped-after-429' : 'stopped-before-sending', reason: this.stopReason }, failed);
			}
			const outcome = await this.send(request, url, credentialsDecrypted, pacer);
			// The README promises the key in no output: a platform may echo it in a success too.
			if (outcome.kind === 'answered') {
				return { ...outcome.response, body: hideSecretInValue(outcome.response.body, apiKey, KEY_REMOVED_MARKER) };
			}
			// Only a 429 is sent again: the platform refused it, so it did not act (why: docs/design.md).
			if (outcome.kind !== 'rate-limited') throw this.failure(outcome, failed);
			const tries = refusals + 1;
			// Wall time: a Retry-After may be an HTTP date.
			const delayMs = retryDelayMs(outcome.retryAfter, refusals, rateLimit, Date.now());
			// Out of tries, or the platform asks for more than one item may wait: the user should hear of it.
			if (refusals >= rateLimit.maxRetries) {
				throw this.failure({ kind: 'rate-limit-exhausted', tries, waitedMs, gaveUp: { gaveUp: 'tries' } }, failed);
			}
			if (waitedMs + delayMs > rateLimit.maxTotalWaitMs) {
				const gaveUp = { gaveUp: 'wait' as const, nextWaitMs: delayMs, maxWaitMs: rateLimit.maxTotalWaitMs };
				throw this.failure({ kind: 'rate-limit-exhausted', tries, waitedMs, gaveUp }, failed);
			}
			pacer.recordRefusal(delayMs);
			// The refused request waits as asked even when the pacer lets the others go on.
			const waited = await this.waitBeforeRetry(delayMs);
			if (waited === undefined) throw this.failure({ kind: 'stopped-after-429', reason: this.stopReason }, failed);
			waitedMs += waited;
		}
	}

	/** Sends once and reads the answer within the deadline. */
	private async send(request: PlatformRequest, url: string, credentialsDecrypted: ICredentialsDecrypted, pacer: RequestPacer): Promise<Outcome> {
		const deadline = this.stop.deadline(this.policy.deadlineMs);
		try {
			const sent = this.context.helpers.httpRequestWithAuthentication.call(
				this.context,
				CREDENTIAL_TYPE,
				{
					method: request.method,
					url,
					// Uncompressed: n8n's client inflates a cut gzip answer without an error (docs/design.md).
					headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Encoding': 'identity' },
					body: request.body === undefined ? undefined : JSON.stringify(request.body),
					// A stream, so that the answer's size and its deadline are the node's to enforce.
					encoding: 'stream',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					// Both, because n8n versions read different ones; the key must not follow a redirect.
					disableFollowRedirect: true,
					maxRedirects: 0,
					sendCredentialsOnCrossOriginRedirect: false,
					// n8n replaces any abort signal with its own, so the deadline races the request instead.
					timeout: deadline.ms,
				},
				{ credentialsDecrypted },
			) as Promise<IN8nHttpFullResponse>;
			let response: IN8nHttpFullResponse;
			try {
				response = await deadline.race(sent, (late) => discardAnswer(late.body));
			} catch (error) {
				// Whatever broke once the user stopped the execution, that stop is what happened.
				if (deadline.cancelled) return { kind: 'stopped-while-answering' };
				return error instanceof DeadlineExceeded ? { kind: 'timeout', deadlineMs: deadline.ms } : noAnswerOutcome(error, deadline.ms);
			}
			if (response.statusCode === 429) this.rateLimited.refused++;
			else pacer.recordAccepted();
			return await readOutcome(response, this.policy.maxAnswerBytes, deadline);
		} finally {
			deadline.finish();
		}
	}

	/** Waits out a 429 unless the run stops: how long it waited, or undefined when stopped. */
	private async waitBeforeRetry(ms: number): Promise<number | undefined> {
		const start = this.clock.now();
		if (this.rateLimited.waiting++ === 0) this.rateLimited.since = start;
		const waited = await this.stop.pause(this.clock, ms);
		const end = this.clock.now();
		// Overlapping waits count once.
		if (--this.rateLimited.waiting === 0) this.rateLimited.pausedMs += end - this.rateLimited.since;
		return waited ? end - start : undefined;
	}

	private failure(outcome: Failure, failed: FailedRequest) {
		this.failures.set(failed.itemIndex, outcome);
		return requestError(outcome, failed);
	}

	private get stopReason() {
		return this.stop.reason ?? 'execution-stopped';
	}

	/** For the run's report: this run's 429s and waits. */
	get rateLimits(): RateLimitReport {
		return { refused: this.rateLimited.refused, pausedMs: this.rateLimited.pausedMs };
	}

	/** Whether the item failed only because the run stopped before its request was sent: a report looks past these. */
	wasHeldBack(itemIndex: number): boolean {
		const kind = this.failures.get(itemIndex)?.kind;
		return kind === 'stopped-before-sending' || kind === 'stopped-after-429';
	}

	mayHaveActedFor(itemIndex: number): boolean {
		const outcome = this.failures.get(itemIndex);
		return outcome !== undefined && mayHaveActed(outcome);
	}
}

// How a failed request, and any other item's error, is worded.

/** Every error of one item names the item at the end of its message. */
export const namingItem = (message: string, itemIndex: number) => `${message} [item ${itemIndex}]`;

/** An item's error that is the node's own finding, not the platform's answer. */
export function itemError(node: INode, itemIndex: number, message: string, description: string): NodeOperationError {
	return new NodeOperationError(node, namingItem(message, itemIndex), { itemIndex, description });
}

/** Everything the node shows about a failed request; never request headers or the key. */
interface FailedRequest {
	node: INode;
	itemIndex: number;
	url: string;
	baseUrl: string;
	/** The API key as sent, so that it can be removed from anything the platform echoes. */
	secret: string;
	/** What a successful request creates, e.g. "room"; used to say what may exist now. */
	creates: string;
}

/** "12.5 s": every duration a user reads. */
export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

// Sentences that more than one error says.
const BASE_URL_ADVICE = `the credential's Base URL: it should be your platform's address, e.g. https://video.example.com, without ${API_VERSION_PREFIX}.`;
const CHECK_REACHABLE = `Check the Base URL ${IN_API_CREDENTIAL}, and that n8n can reach that address.`;
const CHECK_API_ADDRESS = `Check the Base URL ${IN_API_CREDENTIAL}: it should be the platform's API address itself.`;
const NEVER_FOLLOWED = "The node never follows redirects, so that the API key goes only to the Base URL's address";
const UNENCRYPTED = 'The redirect leads from https:// to http://, over which the API key would travel unencrypted, so no address is suggested from it.';
const CHECK_BEFORE_AGAIN = 'Check the platform before you run this item again.';
const notFromTheApi = (answer: string) => `An answer ${answer} is not what the API sends: check that the Base URL is the platform's API.`;

const MAX_SHOWN_URL = 200;

/** Enough to recognise a Content-Encoding or charset; a longer one is not one the node could read anyway. */
const MAX_SHOWN_ENCODING = 60;

const UNREACHABLE: Record<NotSentCode, string> = {
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
	ERR_INVALID_URL: "n8n's HTTP client cannot use it as an address",
};

/** Breaks that can come after the platform got the request. */
const CONNECTION_BROKE: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	EPIPE: 'the connection was closed',
};

const WHY_STOPPED: Record<StopReason, string> = {
	'execution-stopped': 'The execution was stopped',
	'run-failed': 'The run stopped at an earlier failure',
};

type Words = { message: string; description?: string };

/** An error status's words; `said` is the platform's own message, if it gave one. */
function statusWords(status: number, failed: FailedRequest, said: string): Words {
	const quoted = said ? `: ${said}` : '';
	switch (status) {
		case 400:
		case 422:
			return { message: `The platform rejected the request (HTTP ${status})${quoted}`, description: "Check this item's values against the platform's message above." };
		case 401:
			return {
				message: 'The platform rejected the API key (HTTP 401)',
				description: `Open the ${API_CREDENTIAL.displayName} credential, check the API key and use its Test button.`,
			};
		case 403:
			return {
				message: `The API key is not allowed to do this (HTTP 403)${quoted}`,
				description: 'The key was accepted but lacks permission. Ask your platform administrator for a key that may do this.',
			};
		case 404:
			return { message: `Nothing was found at ${failed.url} (HTTP 404)`, description: `Check ${BASE_URL_ADVICE}` };
		case 431:
			return {
				message: 'The platform refused the request headers as too large (HTTP 431)',
				description: `The API key may be too long, or not an API key at all. Check the API key ${IN_API_CREDENTIAL}.`,
			};
	}
	if (status >= 500) {
		return {
			message: `The platform had a server error (HTTP ${status})${quoted}`,
			description: `The request was not repeated, because the platform may have processed it. ${CHECK_BEFORE_AGAIN}`,
		};
	}
	return { message: `The platform answered HTTP ${status}${quoted}`, description: 'The request was not repeated. Check the platform and this item.' };
}

function redirectTarget(location: unknown, requestUrl: string): URL | undefined {
	const value = Array.isArray(location) ? (location[0] as unknown) : location;
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	try {
		// The URL parser drops spaces around it itself.
		return new URL(value, requestUrl);
	} catch {
		return undefined;
	}
}

/** The Base URL that would reach what the redirect points at, if it points at the same API path. */
function suggestedBaseUrl(target: URL, failed: FailedRequest): string | undefined {
	const apiPath = failed.url.slice(failed.baseUrl.length);
	if (!target.pathname.endsWith(apiPath)) return undefined;
	const suggested = `${target.origin}${target.pathname.slice(0, -apiPath.length)}`;
	return suggested === failed.baseUrl ? undefined : quotable(suggested, failed.secret, MAX_SHOWN_URL);
}

const isWebAddress = (url: URL) => url.protocol === 'https:' || url.protocol === 'http:';

/**
 * What to change in the credential, if anything: only a web address is ever offered as the Base URL,
 * never one that drops https. Plainly only for the Base URL's own origin or its https form: a redirect
 * is the server's word, and another port may be another service.
 */
function baseUrlAdvice(target: URL | undefined, failed: FailedRequest): string {
	const from = new URL(failed.url);
	if (from.protocol === 'https:' && target?.protocol === 'http:') return `${UNENCRYPTED} ${CHECK_API_ADDRESS}`;
	const suggested = target && isWebAddress(target) ? suggestedBaseUrl(target, failed) : undefined;
	if (!target || !suggested) return CHECK_API_ADDRESS;
	if (target.origin === from.origin || target.origin === `https://${from.host}`) return `Use ${suggested} as the Base URL ${IN_API_CREDENTIAL}.`;
	return `If ${quotable(target.origin, failed.secret, MAX_SHOWN_URL)} is your platform's API, use ${suggested} as the Base URL ${IN_API_CREDENTIAL}.`;
}

/**
 * A 3xx is never followed (docs/design.md); what it says about the POST decides the words
 * (redirectMeaning). A web target is shown without user info, query or fragment; of any other,
 * only its scheme (`javascript:`, `data:`), since the rest may be a whole page.
 */
function redirectWords(status: number, location: unknown, failed: FailedRequest): Words {
	const meaning = redirectMeaning(status);
	const target = redirectTarget(location, failed.url);
	let to = ' without a valid address to go to';
	let nothingSent = '';
	if (target && isWebAddress(target)) {
		to = ` to ${quotable(`${target.origin}${target.pathname}`, failed.secret, MAX_SHOWN_URL)}`;
		// The redirect's own origin did get the request.
		if (target.origin !== new URL(failed.url).origin) nothingSent = `; nothing was sent to ${quotable(target.origin, failed.secret, MAX_SHOWN_URL)}`;
	} else if (target) {
		to = ` to a ${quotable(target.protocol, failed.secret, MAX_SHOWN_ENCODING)} address, not a web address`;
	}
	const notFollowed = `${NEVER_FOLLOWED}${nothingSent}.`;
	if (meaning === 'carried-out') {
		return {
			message: `The platform answered HTTP ${status} (See Other)${to}, which means it carried out the request; the node does not follow redirects`,
			description: notFollowed,
		};
	}
	const alsoElsewhere = meaning === 'maybe-carried-out' ? `A ${status} can also mean that the Base URL points elsewhere. ` : '';
	return {
		message: `The Base URL answered with a redirect (HTTP ${status})${to}, which the node does not follow`,
		description: `${alsoElsewhere}${baseUrlAdvice(target, failed)} ${notFollowed}`,
	};
}

function handshakeWords(tls: string): { reason: string; hint: string } {
	if (tls.endsWith('certificate required')) {
		return {
			reason: 'the server asks for a client certificate, which the node does not send',
			hint: 'Use a Base URL of the platform that does not require a client certificate (mutual TLS); the node cannot present one.',
		};
	}
	const reason = `the TLS handshake failed (${tls})`;
	if (tls === 'wrong version number') return { reason, hint: `Is the Base URL https:// for a server that speaks plain http://? ${CHECK_REACHABLE}` };
	if (tls.endsWith('alert handshake failure')) {
		return {
			reason,
			hint: `The server may ask for a client certificate, which the node does not send, or accept no TLS version or cipher that n8n offers. ${CHECK_REACHABLE}`,
		};
	}
	return { reason, hint: CHECK_REACHABLE };
}

/** The words of a request that did not reach the platform, or the start of those that may have. */
function failureWords(outcome: Failure, failed: FailedRequest): Words {
	const answer = (status: number) => `The platform's answer (HTTP ${status})`;
	switch (outcome.kind) {
		case 'error-status':
			return statusWords(outcome.status, failed, platformMessage(outcome.body, failed.secret));
		case 'rate-limit-exhausted': {
			const { tries, waitedMs, gaveUp } = outcome;
			const advice = 'Run fewer items at a time (Options → Max Concurrent Requests), or run the workflow later.';
			return {
				// Refused once: the platform asked for a longer wait than the node takes, so none was waited.
				message: `The platform's rate limit refused this item${tries === 1 ? '' : ` ${tries} times, with ${seconds(waitedMs)} of waiting in between`} (HTTP 429)`,
				description:
					gaveUp.gaveUp === 'tries'
						? `After HTTP 429 the node sends an item at most ${tries} times. ${advice}`
						: `The platform asked to wait ${seconds(gaveUp.nextWaitMs)} more, beyond the ${seconds(gaveUp.maxWaitMs)} the node waits for one item. ${advice}`,
			};
		}
		case 'redirected':
			return redirectWords(outcome.status, outcome.location, failed);
		case 'stopped-before-sending':
			return notSentWords(outcome.reason, failed.creates);
		case 'stopped-after-429':
			return {
				message: `${WHY_STOPPED[outcome.reason]} while this item waited to be sent again after HTTP 429`,
				description: `The platform had refused it with HTTP 429 and it was not sent again, so no ${failed.creates} was created for it.`,
			};
		case 'unreachable':
		case 'handshake-failed': {
			const { reason, hint } = outcome.kind === 'unreachable' ? { reason: UNREACHABLE[outcome.code], hint: CHECK_REACHABLE } : handshakeWords(outcome.tls);
			return { message: `Cannot reach the base URL ${failed.baseUrl}: ${reason}`, description: `${NOTHING_SENT}. ${hint}` };
		}
		case 'blocked-by-n8n':
			return {
				message: `n8n's outbound protection (SSRF protection) blocked the request to ${failed.baseUrl}. n8n's reason: ${quotable(outcome.reason, failed.secret, MAX_SHOWN_URL)}`,
				description: `${NOTHING_SENT}. An n8n administrator can allow this host with N8N_SSRF_ALLOWED_HOSTNAMES, or its address with N8N_SSRF_ALLOWED_IP_RANGES, in n8n's environment.`,
			};
		case 'stopped-while-answering':
			return { message: "The execution was stopped while this item's request was waiting for its answer" };
		case 'connection-broke': {
			const { code, tls } = outcome;
			const reason = (code && CONNECTION_BROKE[code]) ?? (tls ? `a TLS error (${tls})` : code ? `network error ${code}` : 'network error');
			return { message: `The connection to ${failed.baseUrl} broke before an answer came: ${reason}` };
		}
		case 'timeout':
			return { message: `No complete answer from ${failed.baseUrl} within ${seconds(outcome.deadlineMs)} (timeout)` };
		case 'cut-off':
			return { message: `${answer(outcome.status)} was cut off before its end` };
		case 'too-large': {
			const megabytes = Math.round(outcome.maxBytes / (1024 * 1024));
			return { message: `${answer(outcome.status)} is larger than ${megabytes} MB, the most the node accepts`, description: notFromTheApi('this large') };
		}
		case 'undecodable': {
			const shown = quotable(outcome.label ?? '', failed.secret, MAX_SHOWN_ENCODING);
			const why = {
				encoding: `its Content-Encoding is "${shown}", which the node cannot read`,
				damaged: 'its compressed body is damaged',
				charset: `its charset is "${shown}", which the node cannot read`,
				'not-in-charset': `its body is not valid ${shown} text`,
				'not-json': 'it is labelled JSON but is not valid JSON',
				'inflated-unverified':
					'it came compressed (the node asks for no compression), and its body does not show that it arrived whole',
			}[outcome.why];
			return { message: `${answer(outcome.status)} could not be decoded: ${why}` };
		}
		case 'too-deep':
			return {
				message: `${answer(outcome.status)} is JSON nested more than ${MAX_NESTING_DEPTH} levels deep, more than the node accepts`,
				description: notFromTheApi('nested this deeply'),
			};
		case 'html-page':
			return {
				message: `The Base URL seems to be a web page, not the platform's API: it answered HTTP ${outcome.status} with an HTML page`,
				description: `Check ${BASE_URL_ADVICE} A sign-in page usually means a proxy or single sign-on stands in front of the API.`,
			};
	}
}

/** The one way a failed request becomes its item's error; only the Base URL and URL are redacted here (docs/design.md). */
function requestError(outcome: Failure, failed: FailedRequest): NodeApiError {
	const words = failureWords(outcome, failed);
	// A 5xx's own words already say that the platform may have acted.
	const unknownEnd = mayHaveActed(outcome) && outcome.kind !== 'error-status' ? `The platform may have created the ${failed.creates}; it was not sent again. ${CHECK_BEFORE_AGAIN}` : '';
	const description = [unknownEnd, words.description ?? ''].filter(Boolean).join(' ');
	// Every outcome with an HTTP answer carries its status; a 429 given up on has none of its own.
	const status = 'status' in outcome ? outcome.status : outcome.kind === 'rate-limit-exhausted' ? 429 : undefined;
	const httpCode = status === undefined ? null : String(status);
	// The whole URL first, then the Base URL alone: not the node's text, its path may hold anything, the key included.
	const outside = [failed.url, failed.baseUrl];
	const clean = (text: string) =>
		withoutMarkup(stripControlCharacters(outside.reduce((done, part) => done.split(part).join(redact(part, failed.secret)), text)));
	const details: JsonObject = { httpCode, url: clean(failed.url), message: clean(words.message) };
	return new NodeApiError(failed.node, details, {
		message: namingItem(clean(words.message), failed.itemIndex),
		description: clean(description),
		httpCode: httpCode ?? undefined,
		itemIndex: failed.itemIndex,
	});
}

/** For an item whose request the stop kept from being sent. */
function notSentWords(reason: StopReason, creates: string): Required<Words> {
	return { message: `${WHY_STOPPED[reason]} before this item was sent`, description: `${NOTHING_SENT} for this item, so no ${creates} was created for it.` };
}

/** For an item whose turn never came because the run stopped. */
export function notStartedError(node: INode, itemIndex: number, reason: StopReason, creates: string): NodeOperationError {
	const { message, description } = notSentWords(reason, creates);
	return itemError(node, itemIndex, message, description);
}
