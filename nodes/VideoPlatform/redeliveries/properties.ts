import type { INodeProperties } from 'n8n-workflow';

export const DEFAULT_KEYS_REMEMBERED = 10_000;
/** n8n reads and writes all remembered keys on every run: about 2.7 MB at this bound. */
export const MAX_KEYS_REMEMBERED = 100_000;

/** Whose keys n8n keeps apart: this node's own, or one list for the whole workflow. */
export type KeyScope = 'node' | 'workflow';

export const subtitle = `={{"Remembers " + ($parameter["keysRemembered"] ?? ${DEFAULT_KEYS_REMEMBERED}) + " keys" + ($parameter["scope"] === "workflow" ? " for the workflow" : "")}}`;

export const properties: INodeProperties[] = [
	{
		displayName:
			'Put this node right after the Video Platform Trigger. A delivery whose key it has already let through stops here; the rest of the workflow does not run for it.',
		name: 'placementNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Delivery Key',
		name: 'deliveryKey',
		type: 'string',
		default: '={{ $json._webhook.deliveryKey }}',
		required: true,
		description:
			"The Video Platform Trigger's _webhook.deliveryKey. An item whose key this node has let through before is dropped. An empty key, or one starting with none: (a delivery without its ID), always passes and is not remembered.",
	},
	{
		displayName: 'Keys Remembered',
		name: 'keysRemembered',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_KEYS_REMEMBERED, numberPrecision: 0 },
		default: DEFAULT_KEYS_REMEMBERED,
		description:
			"How many of the newest keys n8n keeps in its database; when a new key comes, the oldest is forgotten. n8n keeps a 24-character digest of each key, so about 27 bytes per key however long the key is: about 270 KB at 10,000, 2.7 MB at most (100,000). A copy that comes after more than this many other deliveries passes again.",
	},
	{
		displayName: 'Remember Keys For',
		name: 'scope',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'This Node',
				value: 'node',
				description: 'Keys this node has let through; a copied or re-created node starts with none',
			},
			{
				name: 'Whole Workflow',
				value: 'workflow',
				description:
					"One list for every node of this workflow that remembers keys for the whole workflow, such as a second Redelivery Filter or Remove Duplicates with Scope Workflow",
			},
		],
		default: 'node',
	},
];
