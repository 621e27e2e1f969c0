import type { INodeParameters, INodeType } from 'n8n-workflow';

import { expressionWorkflow } from './credentialExpression';

/** A node's subtitle as the editor shows it: n8n's expression engine over the node's parameters. */
export function subtitleOf(nodeType: INodeType, parameters: INodeParameters): unknown {
	const { node, workflow } = expressionWorkflow(nodeType, parameters);
	return workflow.expression.getSimpleParameterValue(node, nodeType.description.subtitle, 'internal', {});
}
