import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { resources } from '../../../nodes/VideoPlatform/actions/resources';
import type { Operation } from '../../../nodes/VideoPlatform/actions/types';
import { VideoPlatform } from '../../../nodes/VideoPlatform/VideoPlatform.node';
import { shownHints } from '../../helpers/nodeHints';
import { subtitleOf } from '../../helpers/subtitle';

const node = new VideoPlatform();
const { description } = node;
const property = (name: string) => description.properties.find((p) => p.name === name);
const registry: Record<string, Record<string, Operation>> = resources;
/** The fields n8n shows for these parameters, as its editor and its execution decide it. */
const shown = (parameters: Record<string, string>) =>
	description.properties.filter((p) => NodeHelpers.displayParameter(parameters, p, { typeVersion: 1 }, description));
const values = (list?: INodeProperties) => (list?.options as INodePropertyOptions[]).map((option) => option.value);
/** Resources whose operations all work on the whole input: they send nothing. */
const sendingNothing = Object.entries(registry)
	.filter(([, operations]) => Object.values(operations).every((operation) => operation.kind === 'batch'))
	.map(([resource]) => resource);

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
		expect(values(property('resource'))).toEqual(['room', 'webhookDelivery']);
		expect(property('resource')?.default).toBe('room');
		expect(description.properties.filter((p) => p.name === 'operation').map(values)).toEqual([['create'], ['dropRedelivered']]);
		expect(values(property('type'))).toEqual(['conference']);
	});

	it('asks for no credential exactly for the resources whose operations send nothing', () => {
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

describe("the Video Platform node's fields", () => {
	it('lists the resources the router runs, in their order', () => {
		expect(values(shown({}).find((p) => p.name === 'resource'))).toEqual(Object.keys(registry));
	});

	// Adding an operation: its file and its line in resources.ts; this fails for an operation the editor would not show.
	it("lists each resource's operations in its Operation list, and shows each operation's fields for it alone", () => {
		for (const [resource, operations] of Object.entries(registry)) {
			const list = shown({ resource }).find((p) => p.name === 'operation');
			expect(values(list)).toEqual(Object.keys(operations));
			for (const [operation, { properties, listing }] of Object.entries(operations)) {
				expect((list?.options as INodePropertyOptions[]).find((option) => option.value === operation)?.name).toBe(listing.name);
				const fields = shown({ resource, operation }).map((p) => p.name);
				expect(fields).toEqual(['resource', 'operation', ...properties.map((p) => p.name)]);
			}
		}
	});

	it('ends the fields of every operation that sends requests with Options holding Max Concurrent Requests', () => {
		for (const [resource, operations] of Object.entries(registry)) {
			for (const [operation, { kind }] of Object.entries(operations)) {
				const fields = shown({ resource, operation });
				const options = fields.find((p) => p.name === 'options');
				if (kind === 'batch') {
					expect(options).toBeUndefined();
				} else {
					expect(fields.at(-1)).toBe(options);
					expect((options?.options as INodeProperties[]).map((o) => o.name)).toContain('maxConcurrentRequests');
				}
			}
		}
	});

	it('offers to AI agents no resource whose operations send nothing', () => {
		expect(sendingNothing).toEqual(['webhookDelivery']);
		const resourceList = shown({}).find((p) => p.name === 'resource')?.options as INodePropertyOptions[];
		const hiddenFromTools = resourceList.filter((option) => option.displayOptions?.show?.['@tool']?.[0] === false).map((option) => option.value);
		expect(hiddenFromTools).toEqual(sendingNothing);
	});
});

const NAME_HINT = expect.stringMatching(/^Name is empty for the first input item/);
const KEY_HINT = expect.stringMatching(/^Delivery Key finds no key in the first input item/);
const DEFAULT_KEY = '={{ $json._webhook.deliveryKey }}';
const fromTrigger = { kind: 'room.ended', _webhook: { deliveryKey: 'id:evt-1', deliveryKeySource: 'id' } };
const fromCalendar = { id: 'evt-1', summary: 'Biology 7A' };

describe('Room → Create: the hint about an empty Name', () => {
	const create = (name: string) => ({ resource: 'room', operation: 'create', name, type: 'conference' });

	it.each([
		['empty', create(''), []],
		['only spaces', create('   '), []],
		['missing, as in a saved workflow that left out the defaults', {}, []],
		['an expression for a field the input item does not have', create('={{ $json.title }}'), [fromCalendar]],
		['an expression that gives only spaces', create('={{ $json.summary }}'), [{ summary: '  ' }]],
	])('is shown when Name is %s', (_case, parameters, input) => {
		expect(shownHints(node, parameters, input)).toEqual([NAME_HINT]);
	});

	it.each([
		['text', create('Biology 7A'), []],
		['an expression that finds the field', create('={{ $json.summary }}'), [fromCalendar]],
		['a number from an expression', create('={{ $json.room }}'), [{ room: 7 }]],
		['an expression, and the previous node has not run yet', create('={{ $json.summary }}'), []],
	])('is not shown when Name is %s', (_case, parameters, input) => {
		expect(shownHints(node, parameters, input)).toEqual([]);
	});

	it('is not shown for Drop Redelivered, which has no Name', () => {
		expect(shownHints(node, { resource: 'webhookDelivery', operation: 'dropRedelivered', deliveryKey: DEFAULT_KEY }, [fromTrigger])).toEqual([]);
	});
});

describe('Webhook Delivery → Drop Redelivered: the hint about a Delivery Key that finds nothing', () => {
	const drop = (deliveryKey: string) => ({ resource: 'webhookDelivery', operation: 'dropRedelivered', deliveryKey });

	it.each([
		['the default key after another trigger', drop(DEFAULT_KEY), [fromCalendar]],
		['an empty key', drop(''), [fromTrigger]],
		['a key expression for a field the item does not have', drop('={{ $json.eventId }}'), [fromCalendar]],
	])('is shown for %s', (_case, parameters, input) => {
		expect(shownHints(node, parameters, input)).toEqual([KEY_HINT]);
	});

	it.each([
		['the default key right after the Video Platform Trigger', drop(DEFAULT_KEY), [fromTrigger]],
		["another trigger's own ID field", drop('={{ $json.id }}'), [fromCalendar]],
		['the default key while the previous node has not run yet', drop(DEFAULT_KEY), []],
	])('is not shown for %s', (_case, parameters, input) => {
		expect(shownHints(node, parameters, input)).toEqual([]);
	});
});
