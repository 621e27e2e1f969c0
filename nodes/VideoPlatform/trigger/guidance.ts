import type { INodeTypeDescription, NodeHint, TriggerPanelDefinition } from 'n8n-workflow';

import { DELIVERY_INFO_KEY, DELIVERY_KEY_PATH } from '../shared/deliveryKey';
import { ACTION_NODE_TYPE } from '../shared/nodeTypes';

/**
 * What the editor tells people about the trigger, outside its fields. n8n 2.x says "Publish" where
 * 1.x says "Activate", so each sentence names both. The spec does not say where the platform keeps
 * its webhook settings, so none is named.
 */

export const PLATFORM_SETTINGS = "your video platform's webhook or integration settings";
export const ACTIVATE = 'publish the workflow (n8n 1.x: activate it)';

const TEST_MODE =
	`<b>While you build the workflow</b>, use the Test URL: put it in ${PLATFORM_SETTINGS}, click Execute step here, and have the platform send a delivery. It shows up here in the editor. The Test URL works only while the editor is listening.`;

const triggerPanel: TriggerPanelDefinition = {
	header: 'Pull in a test delivery from your video platform',
	executionsHelp: {
		inactive: `${TEST_MODE}<br /><br /><b>To run the workflow on its own</b>, copy the Production URL into ${PLATFORM_SETTINGS}, then ${ACTIVATE}. Deliveries then start executions, listed in the executions list, not in the editor.`,
		active: `${TEST_MODE}<br /><br /><b>This workflow is published (n8n 1.x: active)</b>, so deliveries to the Production URL start executions. You find them in the <a data-key="executions">executions list</a>, not in the editor.`,
	},
	activationHint: {
		inactive: `When the Production URL is in ${PLATFORM_SETTINGS}, ${ACTIVATE}: then deliveries start the workflow without this button.`,
		active: 'Deliveries to the Production URL start executions too; those do not show up here.',
	},
};

const eventTriggerDescription = 'Waiting for your video platform to send a delivery to the Test URL';

const activationMessage =
	`Deliveries your video platform sends to the Production URL now start this workflow. Check that the Production URL is in ${PLATFORM_SETTINGS}.`;

/** Shown in the editor while the condition holds; n8n versions without hints show nothing. */
const hints: NodeHint[] = [
	{
		type: 'warning',
		message:
			"Authentication is None: anyone who knows this trigger's Production URL can start the workflow. If your video platform can send a header with a secret, choose Shared Secret Header.",
		displayCondition: '={{ ($parameter.authentication ?? "none") === "none" }}',
		whenToDisplay: 'always',
		location: 'ndv',
	},
];

/**
 * The trigger's description fields outside its parameters. builderHint is read by n8n's AI Workflow
 * Builder and its MCP node search (n8n 2.x); it stays a literal here so that n8n's lint rule
 * no-builder-hint-leakage sees it.
 */
export const triggerGuidance = {
	triggerPanel,
	eventTriggerDescription,
	activationMessage,
	hints,
	builderHint: {
		searchHint:
			`Starts a workflow for each webhook delivery (a real-time event) from the video platform. The platform has not published an API for registering webhooks, so the user copies the trigger's Production URL into the platform's webhook settings by hand. Each item has the payload's fields at the top level and the request's details under ${DELIVERY_INFO_KEY}.`,
		relatedNodes: [
			{
				nodeType: ACTION_NODE_TYPE,
				relationHint: `Put it right after this trigger with resource webhookDelivery, operation dropRedelivered: it drops a delivery the platform sends again, by the key in ${DELIVERY_KEY_PATH}`,
			},
		],
	},
} satisfies Partial<INodeTypeDescription>;
