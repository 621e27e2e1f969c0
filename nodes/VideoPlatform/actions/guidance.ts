import type { INodeTypeDescription, NodeHint, UsableAsToolDescription } from 'n8n-workflow';

import { DELIVERY_INFO_KEY, DELIVERY_KEY_PATH } from '../shared/deliveryKey';
import { TRIGGER_NODE_TYPE } from '../shared/nodeTypes';

/**
 * What the editor, n8n's AI builder and AI agents read about the node, outside its fields.
 * n8n versions without a field ignore it.
 */

/** The resource and operation chosen; saved workflows leave out the defaults (room, create). */
const chosen = (resource: string, operation: string, defaults = resource === 'room') =>
	defaults
		? `($parameter.resource ?? "room") === "room" && ($parameter.operation ?? "create") === "create"`
		: `$parameter.resource === "${resource}" && $parameter.operation === "${operation}"`;

/** A parameter that holds nothing, for the first input item (expressions are resolved against it). */
const isBlank = (name: string) => `String($parameter.${name} ?? "").trim() === ""`;

/**
 * Shown in the input and output panes while the condition holds. n8n resolves an expression in a
 * condition against the first input item, so they see what the node will get.
 */
const hints: NodeHint[] = [
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
];

/**
 * The node's description fields outside its parameters. builderHint is read by n8n's AI Workflow
 * Builder and its MCP node search (n8n 2.x); it stays a literal here so that n8n's lint rule
 * no-builder-hint-leakage sees it.
 */
export const actionGuidance = {
	hints,
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
} satisfies Partial<INodeTypeDescription>;

/** What an AI agent and the node creator read about the tool variant. */
export const asTool = {
	replacements: {
		description:
			"Creates one room on the video platform from a name, and returns the platform's answer. Each call creates a new room, so call it once per room you need. If the node's Create Once Per Key option is on, a call whose key a room was already created for creates nothing and answers skipped: true with the reason, so calling again after an error or a lost answer does not create a second room; an answer saying the room may already exist means do not call again, ask the user to check the platform.",
	},
} satisfies UsableAsToolDescription;
