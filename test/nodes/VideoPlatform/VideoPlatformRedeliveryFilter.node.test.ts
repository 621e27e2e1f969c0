import type { INodeProperties } from 'n8n-workflow';

import { VideoPlatformRedeliveryFilter } from '../../../nodes/VideoPlatform/VideoPlatformRedeliveryFilter.node';
import { MAX_KEYS_REMEMBERED } from '../../../nodes/VideoPlatform/redeliveries/properties';
import { createDeduplicationStore, createFilterContext } from '../../helpers/deduplicationContext';
import { subtitleOf } from '../../helpers/subtitle';

const filter = new VideoPlatformRedeliveryFilter();
const { description } = filter;
const property = (name: string) => description.properties.find((p) => p.name === name) as INodeProperties;

describe('Video Platform Redelivery Filter in the editor', () => {
	it('compares the trigger\'s delivery key unless told otherwise', () => {
		expect(property('deliveryKey')).toMatchObject({ type: 'string', default: '={{ $json._webhook.deliveryKey }}' });
	});

	it('remembers 10,000 keys by default, bounded so what n8n keeps stays small', () => {
		expect(property('keysRemembered')).toMatchObject({
			type: 'number',
			default: 10_000,
			typeOptions: { minValue: 1, maxValue: MAX_KEYS_REMEMBERED, numberPrecision: 0 },
		});
		expect(property('keysRemembered').description).toMatch(/27 bytes per key.*270 KB at 10,000, 2\.7 MB at most \(100,000\)/);
	});

	it('keeps the keys of this node by default; the whole workflow on request', () => {
		expect(property('scope')).toMatchObject({ default: 'node', noDataExpression: true });
		expect((property('scope').options as Array<{ value: string }>).map((o) => o.value)).toEqual(['node', 'workflow']);
	});

	it('is an ordinary node, not a trigger and not offered to AI agents', () => {
		expect(description).toMatchObject({ name: 'videoPlatformRedeliveryFilter', inputs: ['main'], outputs: ['main'] });
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials).toBeUndefined();
	});

	it.each([
		[{ keysRemembered: 10_000, scope: 'node' }, 'Remembers 10000 keys'],
		[{ keysRemembered: 2, scope: 'workflow' }, 'Remembers 2 keys for the workflow'],
		[{}, 'Remembers 10000 keys'],
	])('shows a subtitle that says how much it remembers: %j', (parameters, shown) => {
		expect(subtitleOf(filter, parameters)).toBe(shown);
	});

	it('runs the filter from execute', async () => {
		const store = createDeduplicationStore();
		const item = { json: { _webhook: { deliveryKey: 'id:abc' } } };
		const context = createFilterContext({ store, items: [item, item] });
		expect(await filter.execute.call(context)).toEqual([[{ ...item, pairedItem: { item: 0 } }]]);
	});
});
