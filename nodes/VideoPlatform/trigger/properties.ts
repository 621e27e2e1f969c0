import type { INodeProperties } from 'n8n-workflow';

import { EVENT_KINDS } from '../platform';
import { ALL_DELIVERIES } from './filter';
import { DELIVERY_KEY_PATH } from '../shared/deliveryKey';
import { ACTIVATE, PLATFORM_SETTINGS } from './guidance';

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
		displayName:
			'To drop redelivered webhooks, add a Video Platform node right after this trigger, with Webhook Delivery → Drop Redelivered. This trigger does not drop duplicates itself.',
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
			'The platform has not published its event kinds yet, so every delivery starts the workflow. Use Only When Field Matches to narrow it down.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Delivery ID Field',
				name: 'deliveryIdField',
				type: 'string',
				default: '',
				placeholder: 'e.g. deliveryId',
				description:
					`A payload field (a dot path) whose value identifies a delivery. It makes ${DELIVERY_KEY_PATH}, which Video Platform → Webhook Delivery → Drop Redelivered after this trigger compares to drop redeliveries. Without it, the key is the raw body's digest. A delivery without this field is never dropped.`,
			},
			{
				displayName: 'Only When Field',
				name: 'filterField',
				type: 'string',
				default: '',
				placeholder: 'e.g. data.status',
				description:
					'A payload field, as a dot path. Only deliveries where it has one of the allowed values start the workflow; the others are acknowledged and ignored.',
			},
			{
				displayName: 'Has One Of These Values',
				name: 'filterValues',
				type: 'string',
				default: '',
				placeholder: 'e.g. started, ended',
				description: 'Allowed values of that field, separated by commas',
			},
		],
	},
];
