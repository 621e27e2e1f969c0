import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { API_VERSION_PREFIX, isUsableBaseUrl, normalizeApiKey, normalizeBaseUrl } from '../platform';
import type { FailedRequest } from './errors';
import { httpStatusError, rateLimitError, unreachableError } from './errors';
import { RequestPacer } from './pacer';
import type { Clock, RateLimitPolicy } from './rateLimit';
import { DEFAULT_RATE_LIMIT_POLICY, retryDelayMs, systemClock } from './rateLimit';

export const CREDENTIAL_TYPE = 'videoPlatformApi';

/** Generous, because a room may take a while to provision; a timeout is never retried. */
const REQUEST_TIMEOUT_MS = 60_000;

export interface PlatformRequest {
	method: IHttpRequestMethods;
	/** Path after the version prefix, e.g. `/rooms`. */
	path: string;
	body?: IDataObject;
}

export interface TransportOptions {
	clock?: Clock;
	rateLimit?: RateLimitPolicy;
	timeoutMs?: number;
	/** Shared by the requests of one node run, so that a 429 pauses all of them. */
	pacer?: RequestPacer;
	/** Shared by the requests of one node run: decrypting once instead of per item. */
	credentials?: CredentialCache;
}

interface VideoPlatformCredentials {
	baseUrl?: string;
	apiKey?: string;
}

/** Holds the run's decrypted credential once the first request has read it. */
export interface CredentialCache {
	data?: VideoPlatformCredentials;
}

async function readCredentials(this: IExecuteFunctions, itemIndex: number, cache: CredentialCache) {
	cache.data ??= await this.getCredentials<VideoPlatformCredentials>(CREDENTIAL_TYPE, itemIndex);
	return cache.data;
}

/** Lets n8n authenticate with the credential already read, rather than decrypt it again. */
function decryptedFor(this: IExecuteFunctions, data: VideoPlatformCredentials): ICredentialsDecrypted {
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data: { ...data } };
}

/** A successful response body: parsed JSON where it is JSON, else the raw text. */
export interface PlatformResponse {
	statusCode: number;
	body: unknown;
}

function parseBody(raw: unknown): unknown {
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return '';
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		return raw;
	}
}

/**
 * The one way requests reach the platform: joins the URL, authenticates through the
 * credential, maps every failure to an error that names the item, and waits out 429s
 * (counting, per item, only the waits its own 429s asked for).
 * Nothing else is retried: a POST that may have been processed is never sent twice.
 */
export async function requestVideoPlatform(
	this: IExecuteFunctions,
	request: PlatformRequest,
	itemIndex: number,
	{
		clock = systemClock,
		rateLimit = DEFAULT_RATE_LIMIT_POLICY,
		timeoutMs = REQUEST_TIMEOUT_MS,
		pacer = new RequestPacer(clock),
		credentials: cache = {},
	}: TransportOptions = {},
): Promise<PlatformResponse> {
	const credentials = await readCredentials.call(this, itemIndex, cache);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	if (!isUsableBaseUrl(baseUrl)) {
		throw new NodeOperationError(
			this.getNode(),
			`The credential's Base URL "${baseUrl}" is not a web address [item ${itemIndex}]`,
			{
				itemIndex,
				description:
					'Open the Video Platform API credential and enter your platform\'s address, e.g. https://video.example.com',
			},
		);
	}
	const url = `${baseUrl}${API_VERSION_PREFIX}${request.path}`;
	const failed: FailedRequest = {
		node: this.getNode(),
		itemIndex,
		url,
		baseUrl,
		secret: normalizeApiKey(credentials.apiKey),
	};

	let waitedMs = 0;
	for (let retry = 0; ; retry++) {
		await pacer.waitForTurn();
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
				method: request.method,
				url,
				headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
				body: request.body === undefined ? undefined : JSON.stringify(request.body),
				encoding: 'text',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: timeoutMs,
			}, { credentialsDecrypted: decryptedFor.call(this, credentials) })) as IN8nHttpFullResponse;
		} catch (error) {
			throw unreachableError(failed, error);
		}

		const status = response.statusCode;
		if (status !== 429) pacer.recordAccepted();
		if (status >= 200 && status < 300) {
			return { statusCode: status, body: parseBody(response.body) };
		}
		if (status !== 429) throw httpStatusError(failed, status, response.body);

		const delayMs = retryDelayMs(response.headers?.['retry-after'], retry, rateLimit, clock.now());
		if (retry >= rateLimit.maxRetries || waitedMs + delayMs > rateLimit.maxTotalWaitMs) {
			throw rateLimitError(failed, retry, waitedMs, delayMs);
		}
		pacer.pauseFor(delayMs);
		waitedMs += delayMs;
	}
}
