import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

const MAX_QUOTED_BODY = 300;

/** Everything the node shows about a failed request; never request headers or the key. */
export interface FailedRequest {
	node: INode;
	itemIndex: number;
	url: string;
	baseUrl: string;
	/** The API key as sent, so that it can be removed from anything the platform echoes. */
	secret: string;
}

export function redact(text: string, secret: string): string {
	return secret.length > 0 ? text.split(secret).join('[redacted]') : text;
}

function firstString(...values: unknown[]): string | undefined {
	return values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

/**
 * The platform's own words from an error body. The error body shape is not published, so
 * common fields are tried and the raw text is the fallback.
 */
export function platformMessage(body: unknown): string {
	if (typeof body === 'string') {
		try {
			return platformMessage(JSON.parse(body) as unknown);
		} catch {
			return body.trim().slice(0, MAX_QUOTED_BODY);
		}
	}
	if (body && typeof body === 'object') {
		const data = body as Record<string, unknown>;
		const nested = (data.error && typeof data.error === 'object' ? data.error : {}) as Record<
			string,
			unknown
		>;
		const found = firstString(
			data.message,
			data.error,
			nested.message,
			data.detail,
			data.title,
			data.error_description,
		);
		if (found) return found.slice(0, MAX_QUOTED_BODY);
		return JSON.stringify(body).slice(0, MAX_QUOTED_BODY);
	}
	return '';
}

function describeStatus(status: number, url: string, said: string) {
	const quoted = said ? `: ${said}` : '';
	if (status === 400 || status === 422) {
		return {
			message: `The platform rejected the request (HTTP ${status})${quoted}`,
			description: "Check this item's values against the platform's message above.",
		};
	}
	if (status === 401) {
		return {
			message: 'The platform rejected the API key (HTTP 401)',
			description:
				'Open the Video Platform API credential, check the API key and use its Test button.',
		};
	}
	if (status === 403) {
		return {
			message: `The API key is not allowed to do this (HTTP 403)${quoted}`,
			description:
				'The key was accepted but lacks permission. Ask your platform administrator for a key that may do this.',
		};
	}
	if (status === 404) {
		return {
			message: `Nothing was found at ${url} (HTTP 404)`,
			description:
				"Check the credential's Base URL: it should be your platform's address, e.g. https://video.example.com, without /v1.",
		};
	}
	if (status >= 500) {
		return {
			message: `The platform had a server error (HTTP ${status})${quoted}`,
			description:
				'The request was not repeated, because the platform may have processed it. Check the platform before you run this item again.',
		};
	}
	return {
		message: `The platform answered HTTP ${status}${quoted}`,
		description: 'The request was not repeated. Check the platform and this item.',
	};
}

function apiError(failed: FailedRequest, httpCode: string | null, message: string, description: string) {
	const clean = (text: string) => redact(text, failed.secret);
	const details: JsonObject = { httpCode, url: failed.url, message: clean(message) };
	return new NodeApiError(failed.node, details, {
		message: `${clean(message)} [item ${failed.itemIndex}]`,
		description: clean(description),
		httpCode: httpCode ?? undefined,
		itemIndex: failed.itemIndex,
	});
}

export function httpStatusError(failed: FailedRequest, status: number, body: unknown): NodeApiError {
	const { message, description } = describeStatus(status, failed.url, platformMessage(body));
	return apiError(failed, String(status), message, description);
}

export function rateLimitError(failed: FailedRequest, retries: number, waitedMs: number, nextWaitMs: number) {
	const waited = Math.round(waitedMs / 1000);
	return apiError(
		failed,
		'429',
		`The platform's rate limit was still hit after ${retries} retries and ${waited} s of waiting (HTTP 429)`,
		`The platform asked to wait ${Math.ceil(nextWaitMs / 1000)} s more, beyond what the node waits for one item. Run fewer items at a time, or run the workflow later.`,
	);
}

const NETWORK_REASONS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found (DNS)',
	EAI_AGAIN: 'the host name could not be looked up (DNS)',
	ECONNRESET: 'the connection was reset',
	ETIMEDOUT: 'no answer in time (timeout)',
	ECONNABORTED: 'no answer in time (timeout)',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
	DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
};

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

/** A request that got no HTTP answer at all. Only the error code is kept, never the error. */
export function unreachableError(failed: FailedRequest, error: unknown): NodeApiError {
	const code = networkCode(error);
	const reason = (code && NETWORK_REASONS[code]) ?? (code ? `network error ${code}` : 'network error');
	const timedOut = code === 'ETIMEDOUT' || code === 'ECONNABORTED';
	return apiError(
		failed,
		null,
		`Cannot reach the base URL ${failed.baseUrl}: ${reason}`,
		timedOut
			? 'The request was not repeated, because the platform may have processed it. Check the platform, then the Base URL in the credential.'
			: 'Check the Base URL in the Video Platform API credential, and that n8n can reach that address.',
	);
}
