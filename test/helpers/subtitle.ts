import type { INode, INodeParameters, INodeType, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

/** A node's subtitle as the editor shows it: n8n's expression engine over the node's parameters. */
export function subtitleOf(nodeType: INodeType, parameters: INodeParameters): unknown {
	const node: INode = { id: '1', name: 'Node', type: 'test', typeVersion: 1, position: [0, 0], parameters };
	const nodeTypes = { getByName: () => nodeType, getByNameAndVersion: () => nodeType } as unknown as INodeTypes;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, nodeType.description.subtitle, 'internal', {});
}
