import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { platformMessage, redact, stripControlCharacters } from './platformText';
import type { NotFoundMeaning } from './request';
import { API_CREDENTIAL, IN_API_CREDENTIAL } from '../shared/credentials';
import { API_VERSION_PREFIX } from '../platform';

/** Everything the node shows about a failed request; never request headers or the key. */
export interface FailedRequest {
	node: INode;
	itemIndex: number;
	url: string;
	baseUrl: string;
	/** The API key as sent, so that it can be removed from anything the platform echoes. */
	secret: string;
	/** What a successful request creates, e.g. "room"; used to say what may exist now. */
	creates?: string;
	/** A GET, which changes nothing: it may be, and was, sent again. */
	safe: boolean;
	/** How many times it was sent. */
	tries: number;
	/** What a 404 means for this request, when not a wrong Base URL. */
	notFound?: NotFoundMeaning;
}

/** "was sent 3 times", for the errors of requests that may be sent again. */
export function timesSent(failed: FailedRequest): string {
	return failed.tries === 1 ? 'was sent once' : `was sent ${failed.tries} times`;
}

export const CHECK_BASE_URL =
	`Check the credential's Base URL: it should be your platform's address, e.g. https://video.example.com, without ${API_VERSION_PREFIX}.`;

function describeStatus(status: number, failed: FailedRequest, said: string) {
	const { url } = failed;
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
				`Open the ${API_CREDENTIAL.displayName} credential, check the API key and use its Test button.`,
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
		if (!failed.notFound) return { message: `Nothing was found at ${url} (HTTP 404)`, description: CHECK_BASE_URL };
		// The operation's words may hold an item's value; a wrong Base URL also answers 404 to everything.
		return {
			message: redact(failed.notFound.message, failed.secret),
			description: `${redact(failed.notFound.description, failed.secret)} If this happens whatever the value, ${CHECK_BASE_URL.charAt(0).toLowerCase()}${CHECK_BASE_URL.slice(1)}`,
		};
	}
	if (status === 431) {
		return {
			message: 'The platform refused the request headers as too large (HTTP 431)',
			description:
				`The API key may be too long, or not an API key at all. Check the API key ${IN_API_CREDENTIAL}.`,
		};
	}
	if (status >= 500) {
		return {
			message: `The platform had a server error (HTTP ${status})${quoted}`,
			description: failed.safe
				? `The request only reads, so it changed nothing; it ${timesSent(failed)}. Run this item again later.`
				: 'The request was not repeated, because the platform may have processed it. Check the platform before you run this item again.',
		};
	}
	return {
		message: `The platform answered HTTP ${status}${quoted}`,
		description: 'The request was not repeated. Check the platform and this item.',
	};
}

/**
 * The one way errors are made. `message` and `description` are the node's own words, with any
 * text from outside already made safe by `quotable`/`platformMessage`; only the Base URL, which
 * the user typed and may have pasted the key into, is redacted here. Redacting the node's own
 * words would garble them when a key is short ("er" is in "server").
 */
export function apiError(failed: FailedRequest, httpCode: string | null, message: string, description: string) {
	// The whole URL first: its path may carry an item's value, which may be the key pasted by mistake.
	const outside = [failed.url, failed.baseUrl].filter((text) => text !== '');
	const clean = (text: string) =>
		stripControlCharacters(outside.reduce((done, part) => done.split(part).join(redact(part, failed.secret)), text));
	const details: JsonObject = { httpCode, url: clean(failed.url), message: clean(message) };
	return new NodeApiError(failed.node, details, {
		message: `${clean(message)} [item ${failed.itemIndex}]`,
		description: clean(description),
		httpCode: httpCode ?? undefined,
		itemIndex: failed.itemIndex,
	});
}

export function httpStatusError(failed: FailedRequest, status: number, body: unknown): NodeApiError {
	const said = platformMessage(body, failed.secret);
	const { message, description } = describeStatus(status, failed, said);
	return apiError(failed, String(status), message, description);
}

/** Why an item stopped retrying after 429s: too many tries, or a wait beyond what one item may wait. */
export type RateLimitGiveUp = { gaveUp: 'tries' } | { gaveUp: 'wait'; nextWaitMs: number; maxWaitMs: number };

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** Says what really happened: every try was refused, and how long the node really waited. */
export function rateLimitError(failed: FailedRequest, tries: number, waitedMs: number, why: RateLimitGiveUp) {
	const advice = 'Run fewer items at a time (Options → Max Concurrent Requests), or run the workflow later.';
	return apiError(
		failed,
		'429',
		`The platform's rate limit refused this item ${tries === 1 ? 'once' : `${tries} times`}, with ${seconds(waitedMs)} of waiting in between (HTTP 429)`,
		why.gaveUp === 'tries'
			? `After HTTP 429 the node sends an item at most ${tries} times. ${advice}`
			: `The platform asked to wait ${seconds(why.nextWaitMs)} more, beyond the ${seconds(why.maxWaitMs)} the node waits for one item. ${advice}`,
	);
}
