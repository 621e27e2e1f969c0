// Cross-module: what the editor shows of both nodes and the API credential, read as a user reads it.
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { VideoPlatform } from '../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../nodes/VideoPlatform/VideoPlatformTrigger.node';

const action = new VideoPlatform().description;
const trigger = new VideoPlatformTrigger().description;

type Shown = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every text of a field and of its options, nested ones included, with where it is. */
function textsOf(fields: Shown[], at = ''): Array<[string, string]> {
	return fields.flatMap((field) => {
		const name = 'displayName' in field ? field.displayName : field.name;
		const here = `${at}${name.slice(0, 40)}`;
		const own = (['displayName', 'description', 'hint', 'placeholder', 'action'] as const)
			.map((key) => (field as unknown as Record<string, unknown>)[key])
			.filter((text): text is string => typeof text === 'string')
			.map((text): [string, string] => [here, text]);
		const nested = ('options' in field && Array.isArray(field.options) ? field.options : []) as Shown[];
		const values = 'values' in field && Array.isArray(field.values) ? field.values : [];
		return [...own, ...textsOf([...nested, ...values], `${here} → `)];
	});
}

const panel = trigger.triggerPanel as { header: string; executionsHelp: Record<string, string>; activationHint: Record<string, string> };
const everything: Array<[string, string]> = [
	...textsOf(action.properties, 'Video Platform: '),
	...textsOf(trigger.properties, 'Video Platform Trigger: '),
	...textsOf(new VideoPlatformApi().properties, 'Video Platform API: '),
	...[...(action.hints ?? []), ...(trigger.hints ?? [])].map((hint): [string, string] => ['hint', hint.message]),
	...[panel.header, ...Object.values(panel.executionsHelp), ...Object.values(panel.activationHint)].map((text): [string, string] => ['trigger panel', text]),
	['trigger', String(trigger.activationMessage)],
	['trigger', String(trigger.eventTriggerDescription)],
];

const field = (fields: INodeProperties[], name: string): INodeProperties => {
	for (const candidate of fields) {
		if (candidate.name === name) return candidate;
		if (candidate.type === 'collection') {
			const found = (candidate.options as INodeProperties[]).find((option) => option.name === name);
			if (found) return found;
		}
	}
	throw new Error(`no field ${name}`);
};

describe("the words both nodes and the credential show in the editor (cross-module)", () => {
	it.each([/dot path/i, /digest/i, /\bbytes?\b/i, /atomic/i, /raw body/i, /payload field/i, /SHA-?256/i, /acknowledged/i])(
		'use no developer word such as %p',
		(word) => {
			expect(everything.filter(([, text]) => word.test(text))).toEqual([]);
		},
	);

	it("name the trigger's filter options as the Add Option list shows them", () => {
		const filterField = field(trigger.properties, 'filterField').displayName;
		const filterValues = field(trigger.properties, 'filterValues').displayName;
		expect(field(trigger.properties, 'event').description).toContain(`Add Option → ${filterField} and ${filterValues}`);
		expect(field(trigger.properties, 'filterField').description).toContain(filterValues);
		expect(field(trigger.properties, 'filterValues').description).toContain(filterField);
	});

	it('name Drop Redelivered by the action the node creator lists, and the trigger option by its name', () => {
		const operations = action.properties.filter((candidate) => candidate.name === 'operation').flatMap((operation) => operation.options as INodePropertyOptions[]);
		const listed = operations.find((option) => option.value === 'dropRedelivered')?.action;
		expect(listed).toBe('Drop redelivered webhook deliveries');
		expect(field(trigger.properties, 'duplicatesNotice').displayName).toContain(`the action ${listed}`);
		expect(field(trigger.properties, 'deliveryIdField').description).toContain(`the action ${listed}`);
		expect(field(action.properties, 'deliveryKey').description).toContain(`the trigger's ${field(trigger.properties, 'deliveryIdField').displayName}`);
	});

	it('name Remove Duplicates by the option and value n8n shows (Scope: Workflow)', () => {
		const scope = field(action.properties, 'scope').options as INodePropertyOptions[];
		const whole = scope.find((option) => option.value === 'workflow');
		expect(whole?.description).toContain('Remove Duplicates node with Scope set to Workflow');
		expect(whole?.description).toContain(`Remember Keys For set to ${whole?.name}`);
	});
});
