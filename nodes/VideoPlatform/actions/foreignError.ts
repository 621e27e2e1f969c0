import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemError } from '../shared/itemError';
import { namingItem } from '../transport/client';
import { quotable } from '../shared/secretTraces';

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
