import type { Problem } from './baseUrl';
import { NOTHING_SENT } from './baseUrl';
import { API_CREDENTIAL } from './credentials';
import { isHeaderSafeText, MAX_HEADER_SECRET_LENGTH } from './headerText';

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
