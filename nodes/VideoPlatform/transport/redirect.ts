import type { NodeApiError } from 'n8n-workflow';

import type { FailedRequest } from './errors';
import { apiError } from './errors';
import { quotable } from './platformText';
import { IN_API_CREDENTIAL } from '../shared/credentials';

const MAX_SHOWN_URL = 200;
const NEVER_FOLLOWED =
	"The node never follows redirects, so that the API key goes only to the Base URL's address";

function targetOf(location: unknown, requestUrl: string): URL | undefined {
	const value = Array.isArray(location) ? (location[0] as unknown) : location;
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	try {
		return new URL(value.trim(), requestUrl);
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

/**
 * A 3xx is never followed: it could carry the key to another origin, or turn the POST into a
 * GET whose answer would pass for a created room. The target is shown without user info,
 * query or fragment, where secrets could sit.
 */
export function redirectError(failed: FailedRequest, status: number, location: unknown): NodeApiError {
	const target = targetOf(location, failed.url);
	if (!target) {
		return apiError(
			failed,
			String(status),
			`The Base URL answered with a redirect (HTTP ${status}) that the node does not follow, without a valid address to go to`,
			`Check the Base URL ${IN_API_CREDENTIAL}: it should be the platform's API address itself. ${NEVER_FOLLOWED}.`,
		);
	}
	const shown = quotable(`${target.origin}${target.pathname}`, failed.secret, MAX_SHOWN_URL);
	const origin = quotable(target.origin, failed.secret, MAX_SHOWN_URL);
	const suggested = suggestedBaseUrl(target, failed);
	const sameHost = target.hostname === new URL(failed.url).hostname;
	let advice = `Check the Base URL ${IN_API_CREDENTIAL}: it should be the platform's API address itself.`;
	if (suggested && sameHost) advice = `Use ${suggested} as the Base URL ${IN_API_CREDENTIAL}.`;
	else if (suggested) advice = `If ${origin} is your platform's API, use ${suggested} as the Base URL ${IN_API_CREDENTIAL}.`;
	return apiError(
		failed,
		String(status),
		`The Base URL answered with a redirect (HTTP ${status}) to ${shown}, which the node does not follow`,
		`${advice} ${NEVER_FOLLOWED}; nothing was sent to ${origin}.`,
	);
}
