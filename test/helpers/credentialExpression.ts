import type { INode, INodeType, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

const node: INode = { id: '1', name: 'Node', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} };

/** A one-node workflow, for n8n's own expression engine. */
export function expressionWorkflow(nodeType = { description: { properties: [] } } as unknown as INodeType, parameters = {}) {
	const withParameters = { ...node, parameters };
	const nodeTypes = { getByName: () => nodeType, getByNameAndVersion: () => nodeType } as unknown as INodeTypes;
	return { node: withParameters, workflow: new Workflow({ nodes: [withParameters], connections: {}, active: false, nodeTypes }) };
}

/**
 * One of the credential's `={{ ... }}` expressions as n8n resolves it: its expression engine, with
 * the credential's values as `$credentials`, as n8n's routing and credential test do.
 */
export function evaluateCredentialExpression(expression: string, credentials: object): unknown {
	const { workflow } = expressionWorkflow();
	return workflow.expression.getSimpleParameterValue(node, expression, 'internal', {
		$credentials: credentials,
	} as never);
}
