import './shared/supportedN8n';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { router } from './actions/router';
import { versionDescription } from './actions/versionDescription';

export class VideoPlatform implements INodeType {
	// A copy per instance, as n8n's loader edits the description it loads (its icon paths, its codex).
	description: INodeTypeDescription = { ...versionDescription };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
