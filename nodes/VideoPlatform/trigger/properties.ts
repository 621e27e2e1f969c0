import type { INodeProperties } from 'n8n-workflow';

import { EVENT_KINDS } from '../platform';
import { DELIVERY_KEY_PATH, EDITOR_NAMES } from '../shared/deliveryKey';
import { ACTIVATE, PLATFORM_SETTINGS } from './guidance';

/** Trigger On's value for every delivery, until the platform publishes its event kinds. */
export const ALL_DELIVERIES = '*';

/** The options' display names: the fields and the refusals (options.ts) name them alike. */
export const OPTION_NAMES = {
	deliveryIdField: EDITOR_NAMES.deliveryIdField,
	filterField: 'Only When Field',
	filterValues: 'Has One Of These Values',
} as const;

const options = '($parameter["options"] || {})';
const filterSet = `${options}.filterField && ${options}.filterValues`;

/**
 * The editor's line under the node: the event chosen, else the field filter when both of its
 * options are set (with one of them empty it filters nothing), else "All deliveries".
 */
export const subtitle =
	`={{$parameter["event"] !== ${JSON.stringify(ALL_DELIVERIES)} ? "On: " + $parameter["event"]` +
	` : ${filterSet} ? "When " + ${options}.filterField + " is " + ${options}.filterValues` +
	' : "All deliveries"}}';

/** The Authentication option's values: only `none` turns the secret check off. */
export const AUTHENTICATION = { none: 'none', secretHeader: 'secretHeader' } as const;

export const properties: INodeProperties[] = [
	{
		// n8n 2.x says Publish where 1.x says Activate: a newcomer on 2.x finds no Activate.
		displayName: `The platform has not published an API for registering webhooks. Copy this node's Production URL (above, under Webhook URLs) into ${PLATFORM_SETTINGS}, then ${ACTIVATE}. Use the Test URL only while the editor is listening.`,
		name: 'registrationNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: `The platform may send the same delivery more than once, and this trigger starts the workflow each time. To let each delivery through once, add a Video Platform node right after this trigger with the action ${EDITOR_NAMES.dropRedeliveredAction}.`,
		name: 'duplicatesNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'None', value: AUTHENTICATION.none },
			{ name: 'Shared Secret Header', value: AUTHENTICATION.secretHeader },
		],
		default: 'none',
		description:
			'Whether deliveries must carry a shared secret in a header. The platform has not published a signature scheme.',
	},
	{
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: [{ name: 'All Deliveries', value: ALL_DELIVERIES }, ...EVENT_KINDS],
		default: ALL_DELIVERIES,
		description:
			`The platform has not published its event kinds yet, so every delivery starts the workflow. To start it for some deliveries only, use Add Option → ${OPTION_NAMES.filterField} and ${OPTION_NAMES.filterValues}.`,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: OPTION_NAMES.deliveryIdField,
				name: 'deliveryIdField',
				type: 'string',
				default: '',
				placeholder: 'e.g. deliveryId',
				description:
					`The field of a delivery that says which delivery it is, such as deliveryId (for a field inside another, join the names with dots: data.deliveryId). A Video Platform node with the action ${EDITOR_NAMES.dropRedeliveredAction}, right after this trigger, lets each value through once (the trigger passes it on in ${DELIVERY_KEY_PATH}). Left empty, a delivery counts as sent before only when its content is exactly the same. A delivery without this field always goes through.`,
			},
			{
				displayName: OPTION_NAMES.filterField,
				name: 'filterField',
				type: 'string',
				default: '',
				placeholder: 'e.g. data.status',
				description:
					`A field of the delivery, such as status (for a field inside another, join the names with dots: data.status). Only deliveries where it has one of the values in ${OPTION_NAMES.filterValues} start the workflow; the platform is told the others arrived, and nothing else happens.`,
			},
			{
				displayName: OPTION_NAMES.filterValues,
				name: 'filterValues',
				type: 'string',
				default: '',
				placeholder: 'e.g. started, ended',
				description: `The values of ${OPTION_NAMES.filterField} that start the workflow, separated by commas`,
			},
		],
	},
];
