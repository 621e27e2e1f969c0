import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';

import { expressionWorkflow } from './credentialExpression';

/**
 * The messages of a node's static hints that n8n's editor shows, as its node panel decides
 * (n8n-editor-ui 2.41, useNodeHelpers' getNodeHints): each display condition through n8n's
 * expression engine, with the first input item as $json; a condition that throws or is not a
 * boolean hides its hint. `input` is what the previous node gave; none when it has not run.
 */
export function shownHints(nodeType: INodeType, parameters: INodeParameters, input: IDataObject[] = []): string[] {
	const { node, workflow } = expressionWorkflow(nodeType, parameters);
	const items = input.map((json) => ({ json }));
	return (nodeType.description.hints ?? [])
		.filter((hint) => {
			if (!hint.displayCondition) return true;
			try {
				let shown = workflow.expression.getParameterValue(hint.displayCondition, null, 0, 0, node.name, items, 'manual', {});
				if (typeof shown === 'string' && shown.trim() === 'true') shown = true;
				return shown === true;
			} catch {
				return false;
			}
		})
		.map((hint) => hint.message);
}
