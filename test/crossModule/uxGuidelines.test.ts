import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { VideoPlatformWebhookApi } from '../../credentials/VideoPlatformWebhookApi.credentials';
import { VideoPlatform } from '../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../nodes/VideoPlatform/VideoPlatformTrigger.node';

/** n8n's UX guidelines for UI text, checked over every field of the package, nested ones too. */
const sources: Array<[string, INodeProperties[]]> = [
	['Video Platform', new VideoPlatform().description.properties],
	['Video Platform Trigger', new VideoPlatformTrigger().description.properties],
	['Video Platform API credential', new VideoPlatformApi().properties],
	['Video Platform Webhook API credential', new VideoPlatformWebhookApi().properties],
];

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every field, those inside a collection's options and a fixed collection's values included. */
function flatten(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => [
		p,
		...flatten(((p.options ?? []) as Entry[]).flatMap((o) => ('type' in o ? [o] : 'values' in o ? o.values : []))),
	]);
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);
const isTitleCase = (text: string) =>
	text.split(' ').every((word, i) => i === 0 ? /^[A-Z0-9]/.test(word) : SMALL_WORDS.has(word) || /^[A-Z0-9]/.test(word));

describe.each(sources)('%s follows n8n UX guidelines', (_name, properties) => {
	const fields = flatten(properties).filter((p) => p.type !== 'notice');

	it('labels are in Title Case', () => {
		expect(fields.filter((p) => !isTitleCase(p.displayName)).map((p) => p.displayName)).toEqual([]);
	});

	it('descriptions start with a capital letter and, when one sentence, have no final period', () => {
		const bad = fields.filter(
			(p) => p.description !== undefined && (!/^[A-Z]/.test(p.description) || (!/\. /.test(p.description) && p.description.endsWith('.'))),
		);
		expect(bad.map((p) => p.description)).toEqual([]);
	});

	it('boolean fields are described starting with "Whether"', () => {
		const booleans = fields.filter((p) => p.type === 'boolean' || p.name === 'authentication');
		expect(booleans.filter((p) => !p.description?.startsWith('Whether')).map((p) => p.name)).toEqual([]);
	});

	it('placeholders are examples, written "e.g. ..."', () => {
		const placeholders = fields.filter((p) => p.placeholder !== undefined && p.type !== 'collection');
		expect(placeholders.filter((p) => !p.placeholder!.startsWith('e.g. ')).map((p) => p.placeholder)).toEqual([]);
	});

	it('collections say "Add option"', () => {
		const collections = fields.filter((p) => p.type === 'collection');
		expect(collections.filter((p) => p.placeholder !== 'Add option').map((p) => p.name)).toEqual([]);
	});

	it('option names are in Title Case and actions in sentence case', () => {
		const options = fields.flatMap((p) =>
			((p.options ?? []) as Entry[]).filter((o): o is INodePropertyOptions => !('type' in o) && !('values' in o)),
		);
		expect(options.filter((o) => !isTitleCase(o.name)).map((o) => o.name)).toEqual([]);
		const actions = options.map((o) => o.action).filter((a): a is string => a !== undefined);
		expect(actions.filter((a) => !/^[A-Z][a-z]+( [a-z0-9]+)*$/.test(a))).toEqual([]);
	});
});
