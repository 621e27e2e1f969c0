import type { ICredentialsDecrypted, IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';

import { apiKeyProblem, normalizeApiKey } from '../shared/apiKey';
import { baseUrlProblem, normalizeBaseUrl } from '../shared/baseUrl';
import { API_CREDENTIAL } from '../shared/credentials';
import { itemError } from '../shared/itemError';
import { discardAnswer, readOutcome } from './answer';
import type { FailedRequest } from './messages';
import { requestError } from './messages';
import type { Failure, Outcome, RateLimitBudget } from './outcome';
import { heldBackByStop, mayHaveActed, nextStep, noAnswerOutcome } from './outcome';
import type { RateLimitPolicy, RateLimitReport, RequestPacer } from './pacer';
import { DEFAULT_RATE_LIMIT_POLICY, PacerRegistry, sharedPacers } from './pacer';
import type { PlatformRequest, PlatformRequester, PlatformResponse } from './request';
import { withoutSecret } from './platformText';
import type { Clock } from './stop';
import { DeadlineExceeded, RunStop, systemClock } from './stop';

const CREDENTIAL_TYPE = API_CREDENTIAL.type;

interface VideoPlatformCredentials {
	baseUrl?: string;
	apiKey?: string;
}

type CheckedCredential = Required<VideoPlatformCredentials> | { problem: { message: string; description: string } };

/** The credential as the node sends it, or what is wrong with it; nothing is sent with a problem. */
function checkedCredential(data: VideoPlatformCredentials): CheckedCredential {
	const apiKey = normalizeApiKey(data.apiKey);
	const problem = baseUrlProblem(data.baseUrl) ?? apiKeyProblem(apiKey);
	return problem ? { problem } : { baseUrl: normalizeBaseUrl(data.baseUrl), apiKey };
}

/** The credential as checked, or the item that asked fails; nothing is sent with a problem. */
function usable(node: INode, checked: CheckedCredential, itemIndex: number): Required<VideoPlatformCredentials> {
	if ('problem' in checked) throw itemError(node, itemIndex, checked.problem.message, checked.problem.description);
	return checked;
}

/** How long and how large one request may be, and how long it may wait out 429s. */
interface TransportPolicy {
	rateLimit: RateLimitPolicy;
	/** From send to the last byte of the answer. Generous, since a room may take a while. */
	deadlineMs: number;
	/** Of the decoded answer; far above what creating a room returns. */
	maxAnswerBytes: number;
}

const DEFAULT_TRANSPORT_POLICY: TransportPolicy = {
	rateLimit: DEFAULT_RATE_LIMIT_POLICY,
	deadlineMs: 60_000,
	maxAnswerBytes: 10 * 1024 * 1024,
};

/** A clock that does not wait for real, and shorter limits: for tests; with another clock, runs share no pacers. */
interface TransportOptions {
	clock?: Clock;
	policy?: Partial<TransportPolicy>;
}

/** The one way requests reach the platform, one per node run (a request's life: docs/design.md). */
export class PlatformClient {
	/** Read and checked once per run: the credential does not change within it. */
	private credential?: Promise<{ checked: CheckedCredential; decrypted: ICredentialsDecrypted }>;

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
		this.pacers = clock === systemClock ? sharedPacers : new PacerRegistry(clock);
		this.policy = { ...DEFAULT_TRANSPORT_POLICY, ...policy };
		this.clock = clock;
		// An n8n that gives nodes no cancel signal: a stop then ends the run only between requests.
		this.stop = new RunStop(context.getExecutionCancelSignal?.());
	}

	get rateLimits(): RateLimitReport {
		return { refused: this.rateLimited.refused, pausedMs: this.rateLimited.pausedMs };
	}

	/** Whether the item failed only because the run stopped before its request was sent. */
	wasHeldBack(itemIndex: number): boolean {
		const outcome = this.failures.get(itemIndex);
		return outcome !== undefined && heldBackByStop(outcome);
	}

	mayHaveActedFor(itemIndex: number): boolean {
		const outcome = this.failures.get(itemIndex);
		return outcome !== undefined && mayHaveActed(outcome);
	}

	forItem(itemIndex: number): PlatformRequester {
		return { request: async (request) => await this.request(request, itemIndex) };
	}

	async request(request: PlatformRequest, itemIndex: number): Promise<PlatformResponse> {
		const node = (this.node ??= this.context.getNode());
		const reference = node.credentials?.[CREDENTIAL_TYPE];
		// Concurrent first requests share one read, rather than each decrypting the credential.
		this.credential ??= this.context.getCredentials<VideoPlatformCredentials>(CREDENTIAL_TYPE, itemIndex).then((data) => ({
			checked: checkedCredential(data),
			// Lets n8n authenticate with the credential already read, rather than decrypt it again.
			decrypted: { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data: { ...data } },
		}));
		const { checked, decrypted } = await this.credential;
		const { baseUrl, apiKey } = usable(node, checked, itemIndex);
		const url = `${baseUrl}${request.path}`;
		const failed: FailedRequest = { node, itemIndex, url, baseUrl, secret: apiKey, creates: this.creates };
		// Looked up on the run's first request only: the credential and Base URL do not change within it.
		const pacer = (this.pacer ??= this.pacers.pacerFor(reference?.id ?? undefined, baseUrl, apiKey));
		const budget: RateLimitBudget = { refusals: 0, waitedMs: 0 };
		for (;;) {
			const outcome = await this.sendOnce(request, url, decrypted, pacer, budget.refusals > 0);
			// Wall time: a Retry-After may be an HTTP date.
			const step = nextStep(outcome, budget, this.policy.rateLimit, Date.now());
			if ('done' in step) {
				const { done } = step;
				// The README promises the key in no output: a platform may echo it in a success too.
				if (done.kind === 'answered') return { ...done.response, body: withoutSecret(done.response.body, apiKey) };
				throw this.failure(done, failed);
			}
			budget.refusals++;
			pacer.recordRefusal(step.sendAgainAfterMs);
			// The refused request waits as asked even when the pacer lets the others go on.
			const waitedMs = await this.waitBeforeRetry(step.sendAgainAfterMs);
			if (waitedMs === undefined) throw this.failure({ kind: 'stopped-after-429', reason: this.stopReason }, failed);
			budget.waitedMs += waitedMs;
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

	/** Waits for the pacer, sends once and reads the answer within the deadline. */
	private async sendOnce(
		request: PlatformRequest,
		url: string,
		credentialsDecrypted: ICredentialsDecrypted,
		pacer: RequestPacer,
		after429: boolean,
	): Promise<Outcome> {
		if (!(await pacer.waitForTurn(this.stop)) || this.stop.reason) {
			return { kind: after429 ? 'stopped-after-429' : 'stopped-before-sending', reason: this.stopReason };
		}
		const deadline = this.stop.deadline(this.policy.deadlineMs);
		try {
			const sent = this.context.helpers.httpRequestWithAuthentication.call(
				this.context, CREDENTIAL_TYPE, httpOptions(request, url, deadline.ms), { credentialsDecrypted },
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
}

function httpOptions(request: PlatformRequest, url: string, deadlineMs: number): IHttpRequestOptions {
	return {
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
		timeout: deadlineMs,
	};
}
