import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	INode,
} from 'n8n-workflow';

import type { Problem } from '../shared/credentials';
import { API_CREDENTIAL, apiKeyProblem, baseUrlProblem, normalizeApiKey, normalizeBaseUrl } from '../shared/credentials';
import { itemError } from '../shared/itemError';
import { hideSecretInValue, KEY_REMOVED_MARKER } from '../shared/secretTraces';
import type { Failure, Outcome, PlatformResponse } from './answer';
import { discardAnswer, mayHaveActed, noAnswerOutcome, readOutcome } from './answer';
import type { FailedRequest } from './messages';
import { requestError } from './messages';
import type { RateLimitPolicy, RateLimitReport, RequestPacer } from './pacer';
import { DEFAULT_RATE_LIMIT_POLICY, PacerRegistry, retryDelayMs, sharedPacers } from './pacer';
import type { Clock } from './stop';
import { DeadlineExceeded, RunStop, systemClock } from './stop';

/**
 * A request's life, top to bottom (docs/design.md): the credential, the pacer's turn, the send,
 * the answer read (answer.ts), a 429 sent again, any other end worded as the item's error
 * (messages.ts). The modules it calls never call back.
 */

/** Everything an operation says about a request: method, path after the Base URL (platform.ts) and body. */
export interface PlatformRequest {
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
		private readonly creates?: string,
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
