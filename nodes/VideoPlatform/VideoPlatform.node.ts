import './shared/supportedN8n';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, updateDisplayOptions } from 'n8n-workflow';

import { resources } from './actions/resources';
import { router } from './actions/router';
import { API_CREDENTIAL } from './shared/credentials';
import { DELIVERY_INFO_KEY, DELIVERY_KEY_PATH } from './shared/deliveryKey';
import { TRIGGER_NODE_TYPE } from './shared/nodeTypes';

/** In a hint's condition: the resource and operation chosen; saved workflows leave out the defaults (room, create). */
const chosen = (resource: string, operation: string, defaults = resource === 'room') =>
	defaults
		? `($parameter.resource ?? "room") === "room" && ($parameter.operation ?? "create") === "create"`
		: `$parameter.resource === "${resource}" && $parameter.operation === "${operation}"`;

/** In a hint's condition: a parameter that holds nothing for the first input item (n8n resolves it against that item). */
const isBlank = (name: string) => `String($parameter.${name} ?? "").trim() === ""`;

/** A resource's Operation list, then each operation's fields, shown for that operation alone. */
function operationFields(resource: keyof typeof resources): INodeProperties[] {
	const operations = Object.entries(resources[resource]);
	const firstOperation = operations[0][0];
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operations.map(([operation, { listing }]) => ({ name: listing.name, value: operation, description: listing.description, action: listing.action })),
			default: firstOperation,
		},
		...operations.flatMap(([operation, { properties }]) => updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, properties)),
	];
}

export class VideoPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Platform',
		name: 'videoPlatform',
		icon: { light: 'file:videoPlatform.svg', dark: 'file:videoPlatform.dark.svg' },
		group: ['output'],
		version: 1,
		// n8n's own value for Custom API Call would otherwise show as "__CUSTOM_API_CALL__: room".
		subtitle:
			'={{[$parameter["resource"], $parameter["operation"]].includes("__CUSTOM_API_CALL__") ? "Custom API Call" : $parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create rooms on your video platform, and drop its redelivered webhooks',
		defaults: { name: 'Video Platform' },
		// What an AI agent and the node creator read about the tool variant.
		usableAsTool: {
			replacements: {
				description:
					"Creates one room on the video platform from a name, and returns the platform's answer. Each call creates a new room, so call it once per room you need. If the node's Create Once Per Key option is on, a call whose key a room was already created for creates nothing and answers skipped: true with the reason, so calling again after an error or a lost answer does not create a second room; an answer saying the room may already exist means do not call again, ask the user to check the platform.",
			},
		},
		// Shown in the output pane while the condition holds, resolved against the first input item,
		// so they see what the node will get. n8n versions without hints show nothing.
		hints: [
			{
				type: 'warning',
				message:
					'Name is empty for the first input item, so the room would be sent without a name. If Name is an expression, check that it points at a field the input items have, e.g. {{ $json.title }}.',
				displayCondition: `={{ ${chosen('room', 'create')} && ${isBlank('name')} }}`,
				whenToDisplay: 'always',
				location: 'outputPane',
			},
			{
				type: 'warning',
				message: `Delivery Key finds no key in the first input item, so this node cannot tell a redelivery from a new delivery. Right after the Video Platform Trigger the default finds it; after other nodes, use {{ $('Video Platform Trigger').item.json.${DELIVERY_KEY_PATH} }}, or after another trigger the field that identifies an item.`,
				// Only once an item came in: before the first delivery, the editor resolves the default
				// key against an empty item, and the hint would warn about a set-up that is right.
				displayCondition: `={{ ${chosen('webhookDelivery', 'dropRedelivered')} && Object.keys($json).length > 0 && ${isBlank('deliveryKey')} }}`,
				whenToDisplay: 'always',
				location: 'outputPane',
			},
		],
		// Read by n8n's AI Workflow Builder and its MCP node search (n8n 2.x); a literal, so that
		// n8n's lint rule no-builder-hint-leakage sees it.
		builderHint: {
			searchHint:
				"Creates video rooms (meetings, online classes, consultations) on the user's video platform: resource room, operation create, one room per input item, named by the Name field. Also drops webhook deliveries the platform sends again: resource webhookDelivery, operation dropRedelivered, placed right after the Video Platform Trigger.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-base.googleCalendarTrigger',
					relationHint: "Put before room create: each new calendar event becomes a room, with the event's summary as Name",
				},
				{
					nodeType: 'n8n-nodes-base.slack',
					relationHint: 'Put after room create to tell people in a chat channel about the new room',
				},
				{
					nodeType: TRIGGER_NODE_TYPE,
					relationHint: `Put webhookDelivery dropRedelivered right after this trigger: it compares the key the trigger sets in ${DELIVERY_INFO_KEY}`,
				},
			],
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: API_CREDENTIAL.type,
				required: true,
				// Webhook Delivery sends nothing to the platform. Hidden there rather than shown for Room:
				// n8n's publish check reads saved parameters, which leave out a default resource, so
				// "show" would let a Room node without a credential through.
				displayOptions: { hide: { resource: ['webhookDelivery'] } },
			},
		],
		// Every field, in the editor's order. The router runs an operation by the values of the
		// Resource and Operation lists (actions/resources.ts, where a new operation is one line).
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Room', value: 'room' },
					// Not offered to AI agents: it works on a run's items, and an agent's call is one item.
					// n8n 2.x's editor honours this; n8n 1.x's lists it anyway, and the router refuses it there.
					{ name: 'Webhook Delivery', value: 'webhookDelivery', displayOptions: { show: { '@tool': [false] } } },
				],
				default: 'room',
			},

			// Per resource: its Operation list, then each operation's fields (Options last), from its
			// operation file, shown for it alone.
			...operationFields('room'),
			...operationFields('webhookDelivery'),
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
