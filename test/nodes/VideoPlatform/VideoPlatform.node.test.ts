import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resources } from '../../../nodes/VideoPlatform/actions/resources';
import type { Operation } from '../../../nodes/VideoPlatform/actions/types';
import { VideoPlatform } from '../../../nodes/VideoPlatform/VideoPlatform.node';
import { subtitleOf } from '../../helpers/subtitle';

const node = new VideoPlatform();
const { description } = node;
const property = (name: string) => description.properties.find((p) => p.name === name);

describe('Video Platform node description', () => {
	// A contract, not a restatement: saved workflows break when one of these names changes.
	it('keeps the public names that saved workflows depend on', () => {
		expect(description.name).toBe('videoPlatform');
		expect(description.properties.map((p) => p.name)).toEqual([
			'resource',
			'operation',
			'name',
			'type',
			'options',
			'operation',
			'placementNotice',
			'deliveryKey',
			'keysRemembered',
			'scope',
		]);
		const values = (p?: INodeProperties) => (p?.options as INodePropertyOptions[]).map((option) => option.value);
		expect(values(property('resource'))).toEqual(['room', 'webhookDelivery']);
		expect(property('resource')?.default).toBe('room');
		expect(description.properties.filter((p) => p.name === 'operation').map(values)).toEqual([['create'], ['dropRedelivered']]);
		expect(values(property('type'))).toEqual(['conference']);
	});

	it('asks for no credential exactly for the resources whose operations send nothing', () => {
		const registry: Record<string, Record<string, Operation>> = resources;
		const sendingNothing = Object.keys(registry).filter((resource) => Object.values(registry[resource]).every((operation) => operation.kind === 'batch'));
		expect(sendingNothing).toEqual(['webhookDelivery']);
		expect(description.credentials?.[0].displayOptions).toEqual({ hide: { resource: sendingNothing } });
	});

	it('shows the operation and resource as its subtitle in the editor', () => {
		expect(subtitleOf(node, { resource: 'room', operation: 'create' })).toBe('create: room');
	});

	it('names Custom API Call in its subtitle, not n8n\'s internal value for it', () => {
		expect(subtitleOf(node, { resource: 'room', operation: '__CUSTOM_API_CALL__' })).toBe('Custom API Call');
		expect(subtitleOf(node, { resource: '__CUSTOM_API_CALL__', operation: 'create' })).toBe('Custom API Call');
	});
});
