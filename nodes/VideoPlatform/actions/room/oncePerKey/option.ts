import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { KeyScope } from '../../rememberedKeys';
import { keysRememberedField, readKeysRemembered, readScope } from '../../rememberedKeys';

/** Where the option's fields are, as n8n reads a parameter path. */
const OPTION = 'options.createOncePerKey';
const SETTINGS = `${OPTION}.settings`;
export const KEY_PARAMETER = `${SETTINGS}.key`;
const KEYS_TO_FORGET_PARAMETER = `${SETTINGS}.keysToForget`;

type OncePerKeyMode = 'create' | 'forgetKeys' | 'forgetAll';

export const MODE_NAMES: Record<OncePerKeyMode, string> = {
	create: 'Create Once Per Key',
	forgetKeys: "Forget These Items' Keys",
	forgetAll: 'Forget All Keys',
};

export interface OncePerKeySettings {
	mode: OncePerKeyMode;
	scope: KeyScope;
	maxEntries: number;
}

/** An entry of Room → Create's Options: absent, it changes nothing. */
export const createOncePerKeyOption: INodeProperties = {
	displayName: 'Create Once Per Key',
	name: 'createOncePerKey',
	type: 'fixedCollection',
	default: { settings: {} },
	description:
		"Creates one room per key, however often the workflow runs: n8n remembers the key of each room the platform confirmed (HTTP 2xx), and an item whose key it remembers is not sent but comes out as skipped. Kept in n8n's database for this node (or workflow) only: a copied node or duplicated workflow starts with no keys, and only this node can forget them. The platform itself has no way to tell a room was already created.",
	options: [
		{
			displayName: 'Settings',
			name: 'settings',
			values: [
				{
					displayName: 'Key',
					name: 'key',
					type: 'string',
					default: '',
					required: true,
					placeholder: 'e.g. {{ $json.className }}-{{ $now.toISODate() }}',
					hint: 'What makes a room the same room: e.g. the class and the day, so that running the workflow again that day creates nothing new',
					description:
						"One room is created per key and Base URL (its path included). An item whose room may exist (an earlier request got no clear answer) fails, naming its key, until you check the platform and forget the key.",
				},
				{
					displayName: 'Mode',
					name: 'mode',
					type: 'options',
					noDataExpression: true,
					options: [
						{ name: MODE_NAMES.create, value: 'create', description: 'Create a room for each key not created before' },
						{
							name: MODE_NAMES.forgetKeys,
							value: 'forgetKeys',
							description: "Send nothing; forget the keys in Keys to Forget (or, left empty, the input items' keys), so that the next run creates their rooms again",
						},
						{
							name: MODE_NAMES.forgetAll,
							value: 'forgetAll',
							description:
								'Send nothing; forget every key of this node (with Whole Workflow: every key this workflow remembers, those of Drop Redelivered included)',
						},
					],
					default: 'create',
				},
				{
					displayName: 'Keys to Forget',
					name: 'keysToForget',
					type: 'string',
					typeOptions: { rows: 3 },
					default: '',
					placeholder: 'e.g. Maths-2026-11-26',
					displayOptions: { show: { mode: ['forgetKeys'] } },
					hint: 'Paste the key from the message, without its quotes. Left empty, every input item\'s key is forgotten',
					description:
						'One key per line (spaces around a line are ignored). When set, only these keys are forgotten, whatever the input; left empty, the keys of all input items are.',
				},
				{
					displayName: 'Remember Keys For',
					name: 'scope',
					type: 'options',
					noDataExpression: true,
					options: [
						{ name: 'This Node', value: 'node', description: 'Only this node creates once per key; a copied node starts with no keys' },
						{ name: 'Whole Workflow', value: 'workflow', description: 'Every node of this workflow that remembers keys for the whole workflow shares one list' },
					],
					default: 'node',
				},
				keysRememberedField(
					'How many keys n8n keeps at least, those of the rooms created last; past that, the oldest is forgotten and its room could be created again. A run with more keys is refused.',
				),
			],
		},
	],
};

/** The option's settings, or undefined when the option is not added (then nothing changes). */
export function readOncePerKey(this: IExecuteFunctions): OncePerKeySettings | undefined {
	if (this.getNodeParameter(OPTION, 0, null) === null) return undefined;
	const mode = this.getNodeParameter(`${SETTINGS}.mode`, 0, 'create') as OncePerKeyMode;
	return {
		mode: mode in MODE_NAMES ? mode : 'create',
		scope: readScope.call(this, `${SETTINGS}.scope`),
		maxEntries: readKeysRemembered.call(this, `${SETTINGS}.keysRemembered`),
	};
}

/** The keys Forget These Items' Keys names itself, one per line; none: the input items' keys. */
export function readKeysToForget(this: IExecuteFunctions): string[] {
	const value: unknown = this.getNodeParameter(KEYS_TO_FORGET_PARAMETER, 0, '');
	if (typeof value !== 'string') {
		throw new NodeOperationError(this.getNode(), 'Keys to Forget must be text, one key per line', {
			description: 'Paste the keys from the messages into Options → Create Once Per Key → Keys to Forget, one per line. Nothing was forgotten.',
		});
	}
	return [...new Set(value.split(/\r?\n/).map((line) => line.trim()))].filter((key) => key !== '');
}
