import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { ALL_DELIVERIES, AUTHENTICATION, OPTION_NAMES, properties, subtitle } from '../../../../nodes/VideoPlatform/trigger/properties';
import { subtitleOf } from '../../../helpers/subtitle';

const field = (name: string) => properties.find((p) => p.name === name) as INodeProperties;
const option = (name: string) => (field('options').options as INodeProperties[]).find((o) => o.name === name) as INodeProperties;
const values = (property: INodeProperties) => (property.options as INodePropertyOptions[]).map((o) => o.value);
/** The trigger as the editor sees these fields and subtitle. */
const trigger = { description: { properties, subtitle } } as unknown as INodeType;

describe("the trigger's fields", () => {
	// A contract, not a restatement: saved workflows hold these names and values.
	it('are two notices, Authentication, Trigger On and Options, in that order', () => {
		expect(properties.map((p) => [p.name, p.type])).toEqual([
			['registrationNotice', 'notice'],
			['duplicatesNotice', 'notice'],
			['authentication', 'options'],
			['event', 'options'],
			['options', 'collection'],
		]);
		expect((field('options').options as INodeProperties[]).map((o) => o.name)).toEqual(['deliveryIdField', 'filterField', 'filterValues']);
	});

	it('let every delivery in by default: no secret, and all deliveries', () => {
		expect(values(field('authentication'))).toEqual([AUTHENTICATION.none, AUTHENTICATION.secretHeader]);
		expect(field('authentication').default).toBe('none');
		expect(values(field('event'))[0]).toBe(ALL_DELIVERIES);
		expect(field('event').default).toBe('*');
		expect(field('options').default).toEqual({});
	});

	it('take no expression for Authentication', () => {
		expect(field('authentication').noDataExpression).toBe(true);
	});

	it("name the options as refusals and other fields' descriptions do", () => {
		expect(Object.entries(OPTION_NAMES).map(([name]) => option(name).displayName)).toEqual(Object.values(OPTION_NAMES));
		expect(Object.values(OPTION_NAMES)).toEqual(['Delivery ID Field', 'Only When Field', 'Has One Of These Values']);
		expect(field('event').description).toContain('Add Option → Only When Field and Has One Of These Values');
	});

	it("send the user to the platform's settings with the Production URL, and to Drop Redelivered for repeats", () => {
		expect(field('registrationNotice').displayName).toMatch(/^The platform has not published an API for registering webhooks\. Copy this node's Production URL/);
		expect(field('duplicatesNotice').displayName).toContain('with the action Drop redelivered webhook deliveries');
	});
});

describe("the trigger's subtitle", () => {
	it.each([
		[{ event: '*', options: {} }, 'All deliveries'],
		[{ event: '*' }, 'All deliveries'],
		[{ event: '*', options: { filterField: 'data.status' } }, 'All deliveries'],
		[{ event: '*', options: { filterField: 'data.status', filterValues: 'started, ended' } }, 'When data.status is started, ended'],
		[{ event: 'room.started', options: {} }, 'On: room.started'],
	])('says in the editor what starts the workflow: %j', (parameters, shown) => {
		expect(subtitleOf(trigger, parameters)).toBe(shown);
	});
});
