import { API_VERSION_PREFIX } from '../platform';

// The credentials' rules, shared by both nodes and the credential files: their names, what a
// header can carry, the API key rule and the Base URL rule.

/**
 * The package's two credential types: the name n8n stores with every workflow (never change it)
 * and the name users see, which every message that sends them to a credential uses.
 */
export const API_CREDENTIAL = { type: 'videoPlatformApi', displayName: 'Video Platform API' } as const;

export const WEBHOOK_CREDENTIAL = { type: 'videoPlatformWebhookApi', displayName: 'Video Platform Webhook API' } as const;

/** "… in the Video Platform API credential", the phrase messages end their advice with. */
export const IN_API_CREDENTIAL = `in the ${API_CREDENTIAL.displayName} credential`;

export type Problem = { message: string; description: string };

export const NOTHING_SENT = 'Nothing was sent';

/** Header values carry visible ASCII only; anything else would fail or be mangled on the way. */
export function isHeaderSafeText(text: string): boolean {
	return /^[\x20-\x7e]*$/.test(text);
}

/**
 * Longer than servers take in one request's headers (Node's default is 16 KB for all of them,
 * nginx's 8 KB a line): a paste of something else, refused before it is sent or looked for anywhere.
 */
export const MAX_HEADER_SECRET_LENGTH = 16_384;

// The API key rule.

/** Strips spaces and a pasted `Bearer ` prefix (also `Bearer` alone), so that exactly one is sent. */
export function normalizeApiKey(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/^bearer(\s+|$)/i, '');
}

/**
 * The node's own minimum; the platform publishes none. Messages hide the key wherever it appears,
 * so a shorter one would garble them (a key "1" would hide every 1 in the Base URL).
 */
const MIN_API_KEY_LENGTH = 8;

export const MAX_API_KEY_LENGTH = MAX_HEADER_SECRET_LENGTH;

export function apiKeyProblem(apiKey: string): Problem | undefined {
	if (apiKey === '') {
		return {
			message: `The API key in the ${API_CREDENTIAL.displayName} credential is empty`,
			description: `Paste the API key your platform issued into the ${API_CREDENTIAL.displayName} credential. A key of only spaces, or "Bearer" alone, is empty. ${NOTHING_SENT}.`,
		};
	}
	if (apiKey.length < MIN_API_KEY_LENGTH) {
		const length = `${apiKey.length} character${apiKey.length === 1 ? '' : 's'}`;
		return {
			message: `The API key in the ${API_CREDENTIAL.displayName} credential is too short to be an API key (${length})`,
			description: `Copy the whole API key from the platform into the ${API_CREDENTIAL.displayName} credential. The node takes keys of at least ${MIN_API_KEY_LENGTH} characters: this minimum is the node's own rule (the platform publishes none), since a key this short could not be hidden in the node's messages. ${NOTHING_SENT}.`,
		};
	}
	if (apiKey.length > MAX_API_KEY_LENGTH) {
		return {
			message: `The API key in the ${API_CREDENTIAL.displayName} credential is longer than ${MAX_API_KEY_LENGTH.toLocaleString('en-US')} characters, too long to be an API key`,
			description: `A request's headers cannot carry a key this long: servers refuse them. Check that the ${API_CREDENTIAL.displayName} credential holds the API key your platform issued, not another text. ${NOTHING_SENT}.`,
		};
	}
	if (isHeaderSafeText(apiKey)) return undefined;
	return {
		message: `The API key in the ${API_CREDENTIAL.displayName} credential has characters that an HTTP header cannot carry`,
		description: `Only plain ASCII letters, digits and punctuation can be sent. Copy the key again from the platform, without accents, typographic quotes or line breaks. ${NOTHING_SENT}.`,
	};
}

// The Base URL rule, in one place: what the node sends to, what it refuses and why, and the
// credential's Test expression, which must agree with it (tested against it).

/**
 * Forgives what users paste as base URL: spaces, trailing slashes and the version prefix
 * itself, so that requests always go to exactly `{base}/v1/...`.
 */
export function normalizeBaseUrl(raw: unknown): string {
	let url = String(raw ?? '').trim();
	url = url.replace(/\/+$/, '');
	if (url.toLowerCase().endsWith(API_VERSION_PREFIX)) {
		url = url.slice(0, -API_VERSION_PREFIX.length).replace(/\/+$/, '');
	}
	return url;
}


/** Why a Base URL is refused. Each names the part to fix; none quotes the URL, which may hold a password or the key. */
const BASE_URL_PROBLEMS = {
	userInfo: {
		message: "The credential's Base URL has a user name or password in it (…@ before the host)",
		description: `Remove everything between :// and @, the user name and password, from the Base URL in the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com. The node refuses an @ anywhere in the Base URL, since a /, ?, # or \\ in a password would make what comes before it read as the host. The API key goes in the credential's API Key field: the node signs in with it only, and sends no user name or password. ${NOTHING_SENT}.`,
	},
	queryOrFragment: {
		message: "The credential's Base URL has a query (?…) or a fragment (#…) in it",
		description: `Remove everything from the ? or # on from the Base URL in the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com/api. Requests would otherwise go to the wrong address. ${NOTHING_SENT}.`,
	},
	space: {
		message: "The credential's Base URL has a space or a line break in it",
		description: `Remove it from the Base URL in the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com/api. Spaces around the address are ignored; inside it, they are not part of a web address. ${NOTHING_SENT}.`,
	},
	encodedHost: {
		message: "The credential's Base URL has percent-encoding (%…) in its host name",
		description: `Type the host name as plain text in the Base URL of the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com. An encoded host name can stand for another host than the one it seems to name, so the API key is not sent to it. ${NOTHING_SENT}.`,
	},
	dotLookalike: {
		message: "The credential's Base URL has a character in its host name that web addresses read as a dot",
		description: `Type the host name with plain dots (.) in the Base URL of the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com. Ideographic and full-width full stops (。 ． ｡) are read as dots, so the host name can stand for another host than the one it seems to name, and the API key is not sent to it. ${NOTHING_SENT}.`,
	},
	backslash: {
		message: "The credential's Base URL has a backslash (\\) in it",
		description: `Use forward slashes (/) in the Base URL of the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com/api. n8n's HTTP client does not take a backslash in place of the // after https:, and elsewhere turns it into a /, so requests would not go to the address as typed. ${NOTHING_SENT}.`,
	},
	schemeSlashes: {
		message: "The credential's Base URL does not have two slashes after https: or http:",
		description: `Write the start of the Base URL in the ${API_CREDENTIAL.displayName} credential as https:// (or http://), e.g. https://video.example.com. n8n's HTTP client cannot send to an address with one slash or none there. ${NOTHING_SENT}.`,
	},
	port: {
		message: "The credential's Base URL has a port that is not a number from 1 to 65535",
		description: `Correct the number after the host's colon in the Base URL of the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com:8443, or leave the port out. ${NOTHING_SENT}.`,
	},
	notWebAddress: {
		message: "The credential's Base URL is not a web address",
		description: `Open the ${API_CREDENTIAL.displayName} credential and enter your platform's address, e.g. https://video.example.com. ${NOTHING_SENT}.`,
	},
	notHttp: {
		message: "The credential's Base URL does not start with https:// or http://",
		description: `Enter your platform's address with https:// (or http://) in front in the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com. ${NOTHING_SENT}.`,
	},
} satisfies Record<string, Problem>;

/** Host part as typed, before any path. Lenient on purpose (`https:/`, `//`, backslashes). */
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
	// Anywhere, not only in the host part: a password may hold a / ? # or \ that ends the host early.
	if (url.includes('@')) return BASE_URL_PROBLEMS.userInfo;
	const authority = authorityOf(url);
	if (/[?#]/.test(url)) return BASE_URL_PROBLEMS.queryOrFragment;
	if (/\s/.test(url)) return BASE_URL_PROBLEMS.space;
	if (authority.includes('%')) return BASE_URL_PROBLEMS.encodedHost;
	if (DOT_LOOKALIKES.test(authority)) return BASE_URL_PROBLEMS.dotLookalike;
	if (url.includes('\\')) return BASE_URL_PROBLEMS.backslash;
	const port = portOf(authority);
	if (port !== undefined && !isPortNumber(port)) return BASE_URL_PROBLEMS.port;
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return BASE_URL_PROBLEMS.notWebAddress;
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return BASE_URL_PROBLEMS.notHttp;
	// The URL parser forgives `https:/host` and `https:host`; n8n's client refuses them (ERR_INVALID_URL).
	if (!/^https?:\/\//i.test(url)) return BASE_URL_PROBLEMS.schemeSlashes;
	return undefined;
}

/** The version prefix as a regular expression's source, e.g. `\/v1`. */
const PREFIX_PATTERN = API_VERSION_PREFIX.replace(/[/.]/g, '\\$&');

/**
 * The base URL as `normalizeBaseUrl` above makes it. An expression cannot refuse with a
 * message as the node does (`baseUrlProblem` above). It
 * drops a query or fragment, which cannot change the host. What would send the key elsewhere, or
 * otherwise, becomes text that no URL parser accepts, so the Test fails with n8n's own message
 * and sends nothing: an `@` anywhere, checked before the query is dropped (a password may hold a
 * /, ?, # or backslash, so that what comes before it would be taken for the host), a space, and
 * a host with percent-encoding or a character read as a dot (which would name another host).
 * A port out of range needs no rule: the parser refuses it.
 */
export const BASE_URL_EXPRESSION =
	'={{ String($credentials.baseUrl).trim().replace(/^[\\s\\S]*@[\\s\\S]*$/, "invalid Base URL")' +
	`.replace(/[?#].*$/, "").replace(/\\/+$/, "").replace(/${PREFIX_PATTERN}$/i, "")` +
	'.replace(/\\/+$/, "").replace(/^(?=[\\s\\S]*\\s|[a-z][a-z0-9+.-]*:[/\\\\]*[^/\\\\]*[%\\u3002\\uFF0E\\uFF61])[\\s\\S]*$/i, "invalid Base URL") }}';

