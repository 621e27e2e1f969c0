import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { normalizeApiKey, normalizeBaseUrl } from '../platform';

export const CREDENTIAL_TYPE = 'videoPlatformApi';
const CREDENTIAL_NAME = 'Video Platform API';

export interface VideoPlatformCredentials {
	baseUrl?: string;
	apiKey?: string;
}

/** The credential as requests use it, once its rules have been checked. */
export interface CheckedCredential {
	baseUrl: string;
	apiKey: string;
}

type Problem = { message: string; description: string };

const NOTHING_SENT = 'Nothing was sent.';

/** Why a Base URL is refused. Each names the part to fix; none quotes the URL, which may hold a password or the key. */
const BASE_URL_PROBLEMS = {
	userInfo: {
		message: "The credential's Base URL has a user name or password in it (…@ before the host)",
		description: `Remove everything between :// and @ from the Base URL in the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com. The node signs in with the API key only, and sends no user name or password.`,
	},
	queryOrFragment: {
		message: "The credential's Base URL has a query (?…) or a fragment (#…) in it",
		description: `Remove everything from the ? or # on from the Base URL in the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com/api. Requests would otherwise go to the wrong address.`,
	},
	space: {
		message: "The credential's Base URL has a space or a line break in it",
		description: `Remove it from the Base URL in the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com/api. Spaces around the address are ignored; inside it, they are not part of a web address. ${NOTHING_SENT}`,
	},
	encodedHost: {
		message: "The credential's Base URL has percent-encoding (%…) in its host name",
		description: `Type the host name as plain text in the Base URL of the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com. An encoded host name can stand for another host than the one it seems to name, so the API key is not sent to it. ${NOTHING_SENT}`,
	},
	dotLookalike: {
		message: "The credential's Base URL has a character in its host name that web addresses read as a dot",
		description: `Type the host name with plain dots (.) in the Base URL of the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com. Ideographic and full-width full stops (。 ． ｡) are read as dots, so the host name can stand for another host than the one it seems to name, and the API key is not sent to it. ${NOTHING_SENT}`,
	},
	port: {
		message: "The credential's Base URL has a port that is not a number from 1 to 65535",
		description: `Correct the number after the host's colon in the Base URL of the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com:8443, or leave the port out. ${NOTHING_SENT}`,
	},
	notWebAddress: {
		message: "The credential's Base URL is not a web address",
		description: `Open the ${CREDENTIAL_NAME} credential and enter your platform's address, e.g. https://video.example.com. ${NOTHING_SENT}`,
	},
	notHttp: {
		message: "The credential's Base URL does not start with https:// or http://",
		description: `Enter your platform's address with https:// (or http://) in front in the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com. ${NOTHING_SENT}`,
	},
} satisfies Record<string, Problem>;

/**
 * Host part as typed, before any path: where a `user:password@` would sit. Lenient on purpose
 * (`https:/`, `//`, backslashes), so that a mistyped URL still counts as holding a password.
 */
function authorityOf(url: string): string {
	return url.replace(/^([a-z][a-z0-9+.-]*:)?[/\\]*/i, '').split(/[/?#]/)[0];
}

/**
 * The port as typed after the host, or undefined when there is none. An IPv6 host is in brackets
 * and its colons are not a port's; an authority of no known shape is left to the URL parser.
 */
function portOf(authority: string): string | undefined {
	const port = /^(?:\[[^\]]*\]|[^:[\]]*)(?::(.*))?$/.exec(authority)?.[1];
	return port === '' ? undefined : port;
}

/** The only characters that URL parsing (UTS #46 mapping) turns into a dot in a host name. */
const DOT_LOOKALIKES = /[\u3002\uFF0E\uFF61]/;

function isPortNumber(port: string): boolean {
	return /^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
}

/**
 * Why requests cannot go to this base URL, or undefined when they can. The one place for the
 * Base URL rule: the URL parser decides what a web address is, and the explicit rules refuse
 * what it would silently change (spaces encoded, a percent-encoded host decoded into another).
 * The credential's Test expression (BASE_URL_EXPRESSION) follows it as far as an expression can.
 */
export function baseUrlProblem(raw: unknown): Problem | undefined {
	const url = normalizeBaseUrl(raw);
	const authority = authorityOf(url);
	if (authority.includes('@')) return BASE_URL_PROBLEMS.userInfo;
	if (/[?#]/.test(url)) return BASE_URL_PROBLEMS.queryOrFragment;
	if (/\s/.test(url)) return BASE_URL_PROBLEMS.space;
	if (authority.includes('%')) return BASE_URL_PROBLEMS.encodedHost;
	if (DOT_LOOKALIKES.test(authority)) return BASE_URL_PROBLEMS.dotLookalike;
	const port = portOf(authority);
	if (port !== undefined && !isPortNumber(port)) return BASE_URL_PROBLEMS.port;
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return BASE_URL_PROBLEMS.notWebAddress;
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return BASE_URL_PROBLEMS.notHttp;
	return undefined;
}

/** Header values carry visible ASCII only; anything else would fail or be mangled on the way. */
export function isHeaderSafeText(text: string): boolean {
	return /^[\x20-\x7e]*$/.test(text);
}

/**
 * The node's own minimum; the platform publishes none. Messages hide the key wherever it appears,
 * so a shorter one would garble them (a key "1" would hide every 1 in the Base URL).
 */
const MIN_API_KEY_LENGTH = 8;

export function apiKeyProblem(apiKey: string): Problem | undefined {
	if (apiKey === '') {
		return {
			message: `The API key in the ${CREDENTIAL_NAME} credential is empty`,
			description: `Paste the API key your platform issued into the ${CREDENTIAL_NAME} credential. A key of only spaces, or "Bearer" alone, is empty. ${NOTHING_SENT}`,
		};
	}
	if (apiKey.length < MIN_API_KEY_LENGTH) {
		const length = `${apiKey.length} character${apiKey.length === 1 ? '' : 's'}`;
		return {
			message: `The API key in the ${CREDENTIAL_NAME} credential is too short to be an API key (${length})`,
			description: `Copy the whole API key from the platform into the ${CREDENTIAL_NAME} credential. The node takes keys of at least ${MIN_API_KEY_LENGTH} characters: this minimum is the node's own rule (the platform publishes none), since a key this short could not be hidden in the node's messages. ${NOTHING_SENT}`,
		};
	}
	if (isHeaderSafeText(apiKey)) return undefined;
	return {
		message: `The API key in the ${CREDENTIAL_NAME} credential has characters that an HTTP header cannot carry`,
		description: `Only plain ASCII letters, digits and punctuation can be sent. Copy the key again from the platform, without accents, typographic quotes or line breaks. ${NOTHING_SENT}`,
	};
}

/** Checks the credential before anything is sent; a problem fails the item that asked. */
export function checkCredential(
	node: INode,
	data: VideoPlatformCredentials,
	itemIndex: number,
): CheckedCredential {
	const apiKey = normalizeApiKey(data.apiKey);
	const problem = baseUrlProblem(data.baseUrl) ?? apiKeyProblem(apiKey);
	if (problem) {
		throw new NodeOperationError(node, `${problem.message} [item ${itemIndex}]`, {
			itemIndex,
			description: problem.description,
		});
	}
	return { baseUrl: normalizeBaseUrl(data.baseUrl), apiKey };
}
