import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformClientFactory } from '../transport';
import type { Operation } from './resources';
import { findOperation } from './resources';
import { runPerItem } from './runPerItem';
import { API_CREDENTIAL } from '../shared/credentials';

/** The operation value n8n's editor gives its own "Custom API Call" entry. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

function chosenOperation(this: IExecuteFunctions): Operation {
	const resource = String(this.getNodeParameter('resource', 0));
	const operation = String(this.getNodeParameter('operation', 0));
	const found = findOperation(resource, operation);
	if (operation === CUSTOM_API_CALL) {
		throw new NodeOperationError(this.getNode(), 'Custom API Call runs in the HTTP Request node, not in this node', {
			description:
				`Add an HTTP Request node and set Authentication → Predefined Credential Type → ${API_CREDENTIAL.displayName}; it sends your API key the same way. In this node, pick Room → Create.`,
		});
	}
	if (!found) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" on the resource "${resource}" is not supported`,
			{ description: 'Open the node and pick a resource and an operation from its lists.' },
		);
	}
	return found;
}

/** n8n names the AI tool variant of a node by adding "Tool" to its type, and tests that suffix itself. */
function isAiTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}

/**
 * Per-item operations run with a platform client from `createClient` (the node passes the real
 * one; tests their own clock and pacers); a batch operation gets the whole input.
 */
export async function router(this: IExecuteFunctions, createClient: PlatformClientFactory): Promise<INodeExecutionData[][]> {
	const operation = chosenOperation.call(this);
	if (operation.kind === 'item') return await runPerItem.call(this, operation, createClient);
	// The editor of n8n 1.x still lists batch operations in the tool variant.
	if (isAiTool.call(this)) {
		throw new NodeOperationError(this.getNode(), 'This operation does not run as an AI tool', {
			description:
				'It works on the items of a workflow run, such as the webhook deliveries after the Video Platform Trigger. Use it in a workflow, not attached to an agent; as a tool, pick Room → Create.',
		});
	}
	return [await operation.execute.call(this)];
}
