import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { resources } from './resources';

type OperationExecute = (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject>;
type ResourceEntry = { operations: Record<string, { execute: OperationExecute } | undefined> };

function findOperation(this: IExecuteFunctions, resource: string, operation: string) {
	const entry = (resources as Record<string, ResourceEntry | undefined>)[resource];
	const found = entry?.operations[operation];
	if (!found) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" on the resource "${resource}" is not supported`,
			{ description: 'Open the node and pick a resource and an operation from its lists.' },
		);
	}
	return found.execute;
}

/** What a failed item carries with Continue On Fail: the message and the HTTP status. */
export function errorToJson(error: NodeApiError | NodeOperationError): IDataObject {
	const httpCode = error instanceof NodeApiError && error.httpCode ? Number(error.httpCode) : null;
	return {
		error: { message: error.message, description: error.description ?? null, httpCode },
	};
}

function asNodeError(this: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex });
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const execute = findOperation.call(
		this,
		String(this.getNodeParameter('resource', 0)),
		String(this.getNodeParameter('operation', 0)),
	);

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const json = await execute.call(this, itemIndex);
			returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (caught) {
			const error = asNodeError.call(this, caught, itemIndex);
			if (!this.continueOnFail()) throw error;
			returnData.push({ json: errorToJson(error), pairedItem: { item: itemIndex } });
		}
	}
	return [returnData];
}
