import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isUsableBaseUrl, normalizeApiKey, normalizeBaseUrl } from '../platform';

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

/**
 * Host part as typed, before any path: where a `user:password@` would sit. Lenient on purpose
 * (`https:/`, `//`, backslashes), so that a mistyped URL still counts as holding a password.
 */
function authorityOf(url: string): string {
	return url.replace(/^([a-z][a-z0-9+.-]*:)?[/\\]*/i, '').split(/[/?#]/)[0];
}

/**
 * Why requests cannot go to this base URL, or undefined when they can. Messages never repeat
 * the URL when it may hold a password or a query.
 */
export function baseUrlProblem(raw: unknown): Problem | undefined {
	const url = normalizeBaseUrl(raw);
	if (authorityOf(url).includes('@')) {
		return {
			message: "The credential's Base URL has a user name or password in it (…@ before the host)",
			description: `Remove everything between :// and @ from the Base URL in the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com. The node signs in with the API key only, and sends no user name or password.`,
		};
	}
	if (/[?#]/.test(url)) {
		return {
			message: "The credential's Base URL has a query (?…) or a fragment (#…) in it",
			description: `Remove everything from the ? or # on from the Base URL in the ${CREDENTIAL_NAME} credential, e.g. https://video.example.com/api. Requests would otherwise go to the wrong address.`,
		};
	}
	if (!isUsableBaseUrl(url)) {
		return {
			// Not quoted: what was typed there may be a password or the API key itself.
			message: "The credential's Base URL is not a web address",
			description: `Open the ${CREDENTIAL_NAME} credential and enter your platform's address, e.g. https://video.example.com`,
		};
	}
	return undefined;
}

/** Header values carry visible ASCII only; anything else would fail or be mangled on the way. */
export function apiKeyProblem(apiKey: string): Problem | undefined {
	if (/^[\x20-\x7e]*$/.test(apiKey)) return undefined;
	return {
		message: `The API key in the ${CREDENTIAL_NAME} credential has characters that an HTTP header cannot carry`,
		description:
			'Only plain ASCII letters, digits and punctuation can be sent. Copy the key again from the platform, without accents, typographic quotes or line breaks. Nothing was sent.',
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
