import type { IExecuteFunctions } from 'n8n-workflow';

import { API_CREDENTIAL, baseUrlProblem, normalizeBaseUrl } from '../../../shared/credentials';
import { itemError } from '../../../transport/client';
import { KEY_PARAMETER } from './option';

/** What n8n stores for one key: a digest of each of these texts, never the key itself. */
export interface StoredKeys {
	/** The room for the key was created, once `pending` is gone. */
	created: string;
	/** A request for the key was sent and its outcome is not known yet (or never was). */
	pending: string;
}

/**
 * The texts n8n keeps a digest of for a key. The platform's Base URL is part of them, so that keys
 * kept against a sandbox do not skip rooms on the real platform; the prefix keeps them apart from
 * other keys in a list shared by the whole workflow (Drop Redelivered's, Remove Duplicates').
 */
export function storedKeys(platform: string, key: string): StoredKeys {
	const id = `${platform}\n${key}`;
	return { created: `videoPlatform room created\n${id}`, pending: `videoPlatform room pending\n${id}` };
}

/**
 * The credential's Base URL as the node sends to it, written one way (host in lower case, no
 * default port, no trailing / or /v1): where rooms are created. The path stays, since two
 * platforms or tenants may share a host.
 */
export async function platformBaseUrl(this: IExecuteFunctions): Promise<string> {
	const { baseUrl } = await this.getCredentials<{ baseUrl?: string }>(API_CREDENTIAL.type, 0);
	const problem = baseUrlProblem(baseUrl);
	if (problem) throw itemError(this.getNode(), 0, problem.message, problem.description);
	const url = new URL(normalizeBaseUrl(baseUrl));
	return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function kindOf(value: unknown): string {
	if (value === null || value === undefined) return 'empty';
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The item's key: text, a number or a boolean as text; anything else, or nothing, fails the item. */
export function readItemKey(this: IExecuteFunctions, itemIndex: number): string {
	const value: unknown = this.getNodeParameter(KEY_PARAMETER, itemIndex, '');
	const key = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
	if (typeof key === 'string' && key.trim() !== '') return key;
	throw itemError(
		this.getNode(),
		itemIndex,
		`The Create Once Per Key key of this item is ${typeof key === 'string' ? 'empty' : kindOf(key)}`,
		'Set Options → Create Once Per Key → Key to an expression that gives text for every item, e.g. {{ $json.className }}-{{ $now.toISODate() }}. Nothing was sent for this item.',
	);
}
