import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { resources } from '../../../../nodes/VideoPlatform/actions/resources';
import { VideoPlatform } from '../../../../nodes/VideoPlatform/VideoPlatform.node';
import type { Operation } from '../../../../nodes/VideoPlatform/actions/types';
import { properties as fields } from '../../../../nodes/VideoPlatform/actions/properties';

const { description } = new VideoPlatform();
const registry: Record<string, Record<string, Operation>> = resources;
/** The fields n8n shows for these parameters, as its editor and its execution decide it. */
const shown = (parameters: Record<string, string>) =>
	fields.filter((p) => NodeHelpers.displayParameter(parameters, p, { typeVersion: 1 }, description));
const values = (property?: INodeProperties) => (property?.options as INodePropertyOptions[]).map((option) => option.value);
/** Resources whose operations all work on the whole input: they send nothing. */
const sendingNothing = Object.entries(registry)
	.filter(([, operations]) => Object.values(operations).every((operation) => operation.kind === 'batch'))
	.map(([resource]) => resource);

describe("the Video Platform node's fields", () => {
	it('lists the resources the router runs, in their order', () => {
		expect(values(shown({}).find((p) => p.name === 'resource'))).toEqual(Object.keys(registry));
	});

	// Adding an operation: its file, its line in resources.ts, and its lines in properties.ts; this fails for a missing one.
	it("lists each resource's operations in its Operation list, and shows each operation's fields for it alone", () => {
		for (const [resource, operations] of Object.entries(registry)) {
			const list = shown({ resource }).find((p) => p.name === 'operation');
			expect(values(list).sort()).toEqual(Object.keys(operations).sort());
			for (const [operation, { properties, kind }] of Object.entries(operations)) {
				const fields = shown({ resource, operation }).map((p) => p.name);
				const runOptions = kind === 'item' ? ['options'] : [];
				expect(fields).toEqual(['resource', 'operation', ...properties.map((p) => p.name), ...runOptions]);
			}
		}
	});

	it('offers Max Concurrent Requests in the Options of every operation that sends requests', () => {
		for (const [resource, operations] of Object.entries(registry)) {
			for (const [operation, { kind }] of Object.entries(operations)) {
				const options = shown({ resource, operation }).find((p) => p.name === 'options');
				if (kind === 'batch') expect(options).toBeUndefined();
				else expect((options?.options as INodeProperties[]).map((o) => o.name)).toContain('maxConcurrentRequests');
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
