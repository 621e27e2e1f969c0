import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { quotable } from '../shared/secretTraces';
import { namingItem } from '../transport/client';

// An item's error: what any error caught for an item becomes, and what it carries with Continue On Fail.

export type ItemError = NodeApiError | NodeOperationError;

/**
 * An item's error as the editor shows it. The node's own errors are kept as they are; any other
 * (n8n's expression engine passing a TypeError on, a library) carries words from outside, such as
 * an item's value, so its message and description are quoted: no markup, no Bearer token. No key:
 * the callers have read none when an expression fails.
 */
export function asItemError(node: INode, caught: unknown, itemIndex: number): ItemError {
	if (caught instanceof NodeApiError || caught instanceof NodeOperationError) return caught;
	const { message, description } = (caught ?? {}) as { message?: unknown; description?: unknown };
	return new NodeOperationError(node, namingItem(quotable(String(message ?? caught), ''), itemIndex), {
		itemIndex,
		description: typeof description === 'string' ? quotable(description, '') : undefined,
	});
}

/** What a failed item carries with Continue On Fail: the message and the HTTP status. */
export function errorToJson(error: ItemError): IDataObject {
	const httpCode = error instanceof NodeApiError && error.httpCode ? Number(error.httpCode) : null;
	return {
		error: { message: error.message, description: error.description ?? null, httpCode },
	};
}
