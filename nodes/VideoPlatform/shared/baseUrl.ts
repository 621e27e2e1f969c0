import { API_VERSION_PREFIX } from '../platform';
import { API_CREDENTIAL } from './credentials';

/**
 * The Base URL rule, in one place: what the node sends to, what it refuses and why, and the
 * credential's Test expression, which must agree with it (tested against it).
 */

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

export type Problem = { message: string; description: string };

export const NOTHING_SENT = 'Nothing was sent';

/** Why a Base URL is refused. Each names the part to fix; none quotes the URL, which may hold a password or the key. */
const BASE_URL_PROBLEMS = {
	userInfo: {
		message: "The credential's Base URL has a user name or password in it (…@ before the host)",
		description: `Remove everything between :// and @, the user name and password, from the Base URL in the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com. The node refuses an @ anywhere in the Base URL, since a /, ?, # or \\ in a password would make what comes before it read as the host. The API key goes in the credential's API Key field: the node signs in with it only, and sends no user name or password. ${NOTHING_SENT}.`,
	},
	queryOrFragment: {
		message: "The credential's Base URL has a query (?…) or a fragment (#…) in it",
		description: `Remove everything from the ? or # on from the Base URL in the ${API_CREDENTIAL.displayName} credential, e.g. https://video.example.com/api. Requests would otherwise go to the wrong address.`,
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

