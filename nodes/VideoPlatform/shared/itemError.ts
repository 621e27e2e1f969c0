import type { IDataObject, NodeOperationError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export type ItemError = NodeApiError | NodeOperationError;

/** What a failed item carries with Continue On Fail: the message and the HTTP status. */
export function errorToJson(error: ItemError): IDataObject {
	const httpCode = error instanceof NodeApiError && error.httpCode ? Number(error.httpCode) : null;
	return {
		error: { message: error.message, description: error.description ?? null, httpCode },
	};
}
