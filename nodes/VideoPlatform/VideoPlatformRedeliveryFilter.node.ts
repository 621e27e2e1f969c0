import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { dropRedeliveries } from './redeliveries/filter';
import { properties, subtitle } from './redeliveries/properties';

export class VideoPlatformRedeliveryFilter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Platform Redelivery Filter',
		name: 'videoPlatformRedeliveryFilter',
		icon: { light: 'file:videoPlatform.svg', dark: 'file:videoPlatform.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle,
		description:
			"Drops webhook deliveries that already went through, by the trigger's delivery key, which n8n remembers in its database",
		defaults: { name: 'Video Platform Redelivery Filter' },
		// Declared, and not offered to AI agents: an agent has no delivery keys to filter. n8n's
		// type allows only `true` here, so leaving it undefined is how to say no.
		usableAsTool: undefined,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await dropRedeliveries.call(this);
	}
}
