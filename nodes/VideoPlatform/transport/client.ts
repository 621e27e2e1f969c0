import type { ICredentialsDecrypted, IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { API_VERSION_PREFIX } from '../platform';
import { discardAnswer, readAnswer } from './answer';
import type { CheckedCredential, VideoPlatformCredentials } from './credential';
import { checkCredential, CREDENTIAL_TYPE } from './credential';
import { decodeSuccess } from './decode';
import { Deadline, DeadlineExceeded } from './deadline';
import type { FailedRequest } from './errors';
import { httpStatusError, rateLimitError } from './errors';
import type { RateLimitReport, RequestPacer } from './pacer';
import { PacerRegistry, sharedPacers } from './pacerRegistry';
import type { TransportPolicy, TransportSeams } from './policy';
import { DEFAULT_TRANSPORT_POLICY } from './policy';
import type { Clock } from './rateLimit';
import { retryDelayMs, systemClock } from './rateLimit';
import { redirectError } from './redirect';
import type { PlatformRequest, PlatformRequester, PlatformResponse } from './request';
import { encodePath, isSafeMethod } from './request';
import { withoutSecret } from './platformText';
import { RunStop } from './runStop';
import { stoppedBeforeSending, stoppedWhileAnswering } from './stopped';
import { cutOffError, isLostAnswer, noAnswerError, timeoutError, tooLargeError } from './unanswered';

/**
 * Failures a safe request is sent again after: a server error that may pass, a lost or cut-off
 * answer. Not a timeout (it took the whole deadline already), nor what would fail the same way
 * again (a refused connection, DNS, TLS, 501).
 */
const transient = new WeakSet<Error>();

const RETRIED_STATUSES = new Set([500, 502, 503, 504]);

function worthRetrying<E extends Error>(error: E, when = true): E {
	if (when) transient.add(error);
	return error;
}

/** How often one request was refused with 429, and how long it waited for them. */
interface RateLimitBudget {
	refusals: number;
	waitedMs: number;
}

/** Only the start of an error answer is quoted, so there is no need to read more. */
const MAX_ERROR_ANSWER_BYTES = 64 * 1024;

/**
 * The one way requests reach the platform, one per node run. It reads the credential once,
 * paces requests with every run in this process that uses the same credential, encodes the path
 * and joins the URL, and maps every failure to an error that names the item. 429s are waited out.
 * A safe request (GET) is also sent again after a server error or a lost answer; an unsafe one
 * (POST) never, since the platform may have processed it. Redirects are never followed.
 */
export class PlatformClient {
	private credential?: Promise<VideoPlatformCredentials>;

	private pacer?: RequestPacer;

	private readonly pacers: PacerRegistry;

	private readonly policy: TransportPolicy;

	private readonly clock: Clock;

	/** This run's own 429s; the pacer may be shared with other runs. */
	private refused = 0;

	/** The waits this run's 429s really took, as [start, end]; overlapping ones count once. */
	private readonly waits: Array<[number, number]> = [];

	/** Ends this run's waits and sends when the user stops the execution or an item fails the run. */
	readonly stop: RunStop;

	constructor(
		private readonly context: IExecuteFunctions,
		/** What a successful request creates, e.g. "room", to say what may exist after a failure. */
		private readonly creates?: string,
		{
			clock = systemClock,
			pacers = clock === systemClock ? sharedPacers : new PacerRegistry(clock),
			policy = {},
		}: TransportSeams = {},
	) {
		this.pacers = pacers;
		this.policy = { ...DEFAULT_TRANSPORT_POLICY, ...policy };
		this.clock = clock;
		// An n8n that gives nodes no cancel signal: a stop then ends the run only between requests.
		this.stop = new RunStop(context.getExecutionCancelSignal?.());
	}

	/** How many 429s this run got and how long it really paused for them. */
	get rateLimits(): RateLimitReport {
		let pausedMs = 0;
		let coveredUntil = -Infinity;
		for (const [start, end] of [...this.waits].sort((a, b) => a[0] - b[0])) {
			pausedMs += Math.max(0, end - Math.max(start, coveredUntil));
			coveredUntil = Math.max(coveredUntil, end);
		}
		return { refused: this.refused, pausedMs };
	}

	forItem(itemIndex: number): PlatformRequester {
		return { request: async (request) => await this.request(request, itemIndex) };
	}

	/** Concurrent first requests share one read, rather than each decrypting the credential. */
	private async readCredential(itemIndex: number): Promise<VideoPlatformCredentials> {
		this.credential ??= this.context.getCredentials<VideoPlatformCredentials>(CREDENTIAL_TYPE, itemIndex);
		return await this.credential;
	}

	/** Lets n8n authenticate with the credential already read, rather than decrypt it again. */
	private decrypted(data: VideoPlatformCredentials): ICredentialsDecrypted {
		const reference = this.context.getNode().credentials?.[CREDENTIAL_TYPE];
		return { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data: { ...data } };
	}

	async request(request: PlatformRequest, itemIndex: number): Promise<PlatformResponse> {
		const data = await this.readCredential(itemIndex);
		const credential = checkCredential(this.context.getNode(), data, itemIndex);
		const encoded = encodePath(request.path);
		if ('problem' in encoded) {
			throw new NodeOperationError(this.context.getNode(), `A value in the request's path ${encoded.problem} [item ${itemIndex}]`, {
				itemIndex,
				description: "Check this item's values: each must name one thing, such as a room's ID. Nothing was sent.",
			});
		}
		const { path } = encoded;
		const safe = isSafeMethod(request.method);
		const failed: FailedRequest = {
			node: this.context.getNode(),
			itemIndex,
			url: `${credential.baseUrl}${API_VERSION_PREFIX}${path}`,
			baseUrl: credential.baseUrl,
			secret: credential.apiKey,
			// A read creates nothing, whatever the operation makes with its other requests.
			creates: safe ? undefined : this.creates,
			safe,
			tries: 0,
			notFound: request.notFound,
		};
		const { maxRetries, delayMs } = this.policy.safeRetry;
		// One 429 budget for the request, however often a safe one is sent again.
		const budget: RateLimitBudget = { refusals: 0, waitedMs: 0 };
		for (let retry = 0; ; retry++) {
			// Every failure of an exchange is already the node's own error, naming the item.
			const failure = await this.exchange(request, failed, data, credential, budget).then(
				(response) => ({ response }),
				(error: Error) => ({ error }),
			);
			if ('response' in failure) return failure.response;
			if (!safe || retry >= maxRetries || !transient.has(failure.error)) throw failure.error;
			if (!(await this.stop.pause(this.clock, delayMs * 2 ** retry))) throw stoppedBeforeSending(failed, this.stop.reason ?? 'execution-stopped', false);
		}
	}

	/** Sends until the platform answers with something other than 429, within the 429 budget. */
	private async exchange(
		request: PlatformRequest,
		failed: FailedRequest,
		data: VideoPlatformCredentials,
		credential: CheckedCredential,
		budget: RateLimitBudget,
	): Promise<PlatformResponse> {
		// Looked up on the run's first request only: the credential and Base URL do not change within it.
		const pacer = (this.pacer ??= this.pacers.pacerFor(
			this.context.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? undefined,
			credential.baseUrl,
			credential.apiKey,
		));
		const { rateLimit } = this.policy;
		for (let refusedBefore = false; ; refusedBefore = true) {
			if (!(await pacer.waitForTurn(this.stop)) || this.stop.reason) throw this.notSent(failed, refusedBefore);
			const deadline = new Deadline(this.policy.deadlineMs, this.stop.cancelSignal);
			failed.tries++;
			const response = await this.send(request, failed, this.decrypted(data), deadline);
			const status = response.statusCode;
			if (status === 429) this.refused++;
			else pacer.recordAccepted();
			if (status >= 200 && status < 300) return await this.successOf(response, failed, deadline);
			if (status >= 300 && status < 400) {
				discardAnswer(response.body);
				throw redirectError(failed, status, response.headers?.location);
			}
			// Read, not dropped, so that the connection can be reused for the retry.
			const said = await this.errorText(response, deadline);
			if (status !== 429) throw worthRetrying(httpStatusError(failed, status, said), RETRIED_STATUSES.has(status));

			const retry = budget.refusals++;
			const delayMs = retryDelayMs(response.headers?.['retry-after'], retry, rateLimit, this.clock.now());
			const { refusals: tries, waitedMs } = budget;
			if (retry >= rateLimit.maxRetries) throw rateLimitError(failed, tries, waitedMs, { gaveUp: 'tries' });
			if (waitedMs + delayMs > rateLimit.maxTotalWaitMs) {
				throw rateLimitError(failed, tries, waitedMs, { gaveUp: 'wait', nextWaitMs: delayMs, maxWaitMs: rateLimit.maxTotalWaitMs });
			}
			pacer.recordRefusal(delayMs);
			// The refused request waits as asked even when the pacer lets the others go on.
			budget.waitedMs += await this.waitBeforeRetry(delayMs, failed);
		}
	}

	/** Waits out a 429, unless the run stops; returns how long it waited. */
	private async waitBeforeRetry(delayMs: number, failed: FailedRequest): Promise<number> {
		const start = this.clock.now();
		const waited = await this.stop.pause(this.clock, delayMs);
		this.waits.push([start, this.clock.now()]);
		if (!waited) throw this.notSent(failed, true);
		return this.clock.now() - start;
	}

	private notSent(failed: FailedRequest, refusedBefore: boolean) {
		return stoppedBeforeSending(failed, this.stop.reason ?? 'execution-stopped', refusedBefore);
	}

	private async send(
		request: PlatformRequest,
		failed: FailedRequest,
		credentialsDecrypted: ICredentialsDecrypted,
		deadline: Deadline,
	): Promise<IN8nHttpFullResponse> {
		const pending = this.context.helpers.httpRequestWithAuthentication.call(
			this.context,
			CREDENTIAL_TYPE,
			{
				method: request.method,
				url: failed.url,
				// Uncompressed: n8n's client inflates a cut gzip answer without an error (see decode.ts).
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
		try {
			return await deadline.race(pending, (late) => discardAnswer(late.body));
		} catch (error) {
			// Whatever broke once the user stopped the execution, that stop is what happened.
			if (deadline.cancelled) throw stoppedWhileAnswering(failed);
			// A timeout is not sent again: it already took the whole deadline.
			if (error instanceof DeadlineExceeded) throw timeoutError(failed, deadline.ms);
			throw worthRetrying(noAnswerError(failed, error, deadline.ms), isLostAnswer(error));
		}
	}

	private async successOf(
		response: IN8nHttpFullResponse,
		failed: FailedRequest,
		deadline: Deadline,
	): Promise<PlatformResponse> {
		const status = response.statusCode;
		const answer = await readAnswer(response.body, this.policy.maxAnswerBytes, deadline);
		if (answer.outcome !== 'whole' && deadline.cancelled) throw stoppedWhileAnswering(failed);
		if (answer.outcome === 'deadline') throw timeoutError(failed, deadline.ms);
		if (answer.outcome === 'cut-off') throw worthRetrying(cutOffError(failed, status));
		if (answer.outcome === 'overflowed') throw tooLargeError(failed, status, this.policy.maxAnswerBytes);
		// The README promises the key in no output: a platform may echo it in a success too.
		return { statusCode: status, body: withoutSecret(decodeSuccess(answer, response.headers, failed, status), failed.secret) };
	}

	/** The start of an error answer, to quote; the status says enough when it cannot be read. */
	private async errorText(response: IN8nHttpFullResponse, deadline: Deadline): Promise<string> {
		return (await readAnswer(response.body, MAX_ERROR_ANSWER_BYTES, deadline)).text;
	}
}

/** How runs get their client; tests pass one that builds clients with a fake clock and their own pacers. */
export type PlatformClientFactory = (context: IExecuteFunctions, creates?: string) => PlatformClient;

export const createPlatformClient: PlatformClientFactory = (context, creates) => new PlatformClient(context, creates);
