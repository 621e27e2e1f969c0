import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type ItemError = NodeApiError | NodeOperationError;

/** Every error of one item names the item at the end of its message. */
export const namingItem = (message: string, itemIndex: number) => `${message} [item ${itemIndex}]`;

/** An item's error that is the node's own finding, not the platform's answer. */
export function itemError(node: INode, itemIndex: number, message: string, description: string): NodeOperationError {
	return new NodeOperationError(node, namingItem(message, itemIndex), { itemIndex, description });
}

/** What a failed item carries with Continue On Fail: the message and the HTTP status. */
export function errorToJson(error: ItemError): IDataObject {
	const httpCode = error instanceof NodeApiError && error.httpCode ? Number(error.httpCode) : null;
	return {
		error: { message: error.message, description: error.description ?? null, httpCode },
	};
}
