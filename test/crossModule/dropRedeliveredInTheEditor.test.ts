import type {
	INode,
	INodeCredentialDescription,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers, validateNodeCredentials } from 'n8n-workflow';

import { deliveryItem } from '../../nodes/VideoPlatform/trigger/delivery';
import { deliveryKeyOf } from '../../nodes/VideoPlatform/trigger/deliveryKey';
import { VideoPlatform } from '../../nodes/VideoPlatform/VideoPlatform.node';
import { createDeduplicationStore, createFilterContext } from '../helpers/deduplicationContext';
import { expressionWorkflow } from '../helpers/credentialExpression';
import { subtitleOf } from '../helpers/subtitle';

const node = new VideoPlatform();
const { description } = node;
const forDrop = { resource: 'webhookDelivery', operation: 'dropRedelivered' };
/** The fields n8n shows for these parameters, as its editor and its execution decide it. */
const shown = (parameters: Record<string, string>, type: INodeTypeDescription = description) =>
	type.properties.filter((p) => NodeHelpers.displayParameter(parameters, p, { typeVersion: 1 }, type));
const property = (name: string) => shown(forDrop).find((p) => p.name === name) as INodeProperties;
const credential = description.credentials?.[0] as INodeCredentialDescription;
/** The description n8n makes for the AI tool variant: the same, under a name ending in "Tool". */
const toolVariant: INodeTypeDescription = { ...description, name: `${description.name}Tool` };
const resourceOptions = (type: INodeTypeDescription) =>
	(shown({}, type).find((p) => p.name === 'resource')?.options as INodePropertyOptions[]).filter((option) =>
		NodeHelpers.displayParameter({}, option, { typeVersion: 1 }, type),
	);

describe('Video Platform → Webhook Delivery → Drop Redelivered in the editor', () => {
	// A contract: these are the former Redelivery Filter's names, so its settings carry over.
	it("keeps the Redelivery Filter's field names, and shows only them", () => {
		expect(shown(forDrop).map((p) => p.name)).toEqual(['resource', 'operation', 'placementNotice', 'deliveryKey', 'keysRemembered', 'scope']);
	});

	it("by default compares the key the trigger gave the item, as n8n's expression engine reads it", () => {
		const payload = { id: 'evt_1', type: 'room.started' };
		const key = deliveryKeyOf(payload, 'id', null);
		const item = { json: deliveryItem({ parsedBody: payload, headers: {}, query: {} }, [], '2026-11-24T00:00:00.000Z', { ...key }) };
		const { node: filterNode, workflow } = expressionWorkflow(node, forDrop);
		const resolved = workflow.expression.getParameterValue(property('deliveryKey').default as string, null, 0, 0, filterNode.name, [item], 'internal', {});
		expect(resolved).toBe(key.deliveryKey);
		expect(resolved).toMatch(/^id:[0-9a-f]{64}$/);
	});

	it('asks for no credential; Room still does, also when its resource is saved as the default', () => {
		expect(credential).toMatchObject({ name: 'videoPlatformApi', required: true });
		const asks = (parameters: INodeParameters) => NodeHelpers.displayParameter(parameters, credential, { typeVersion: 1 }, description);
		expect(asks(forDrop)).toBe(false);
		expect(asks({ resource: 'room', operation: 'create' })).toBe(true);
		// The editor saves no default values; n8n fills them in before it runs a node.
		expect(asks({})).toBe(true);
		expect(asks(NodeHelpers.getNodeParameters(description.properties, {}, true, false, { typeVersion: 1 }, description) ?? {})).toBe(true);
	});

	it("passes n8n's publish check without a credential; a Room node without one still fails it", () => {
		const saved = (parameters: INodeParameters): INode => ({ id: '1', name: 'Node', type: 'n8n-nodes-videoplatform.videoPlatform', typeVersion: 1, position: [0, 0], parameters });
		expect(validateNodeCredentials(saved(forDrop), node)).toEqual([]);
		expect(validateNodeCredentials(saved({}), node)).toEqual([expect.objectContaining({ type: 'missing', credentialName: 'videoPlatformApi' })]);
	});

	it('is not offered in the AI tool variant, where Room is', () => {
		expect(resourceOptions(description).map((o) => o.value)).toEqual(['room', 'webhookDelivery']);
		expect(resourceOptions(toolVariant).map((o) => o.value)).toEqual(['room']);
		expect(description.usableAsTool).toEqual({ replacements: { description: expect.stringMatching(/^Creates one room/) } });
	});

	it('shows the operation and resource as the node\'s subtitle', () => {
		expect(subtitleOf(node, forDrop)).toBe('dropRedelivered: webhookDelivery');
	});

	it('runs from the node\'s execute, without a credential', async () => {
		const store = createDeduplicationStore();
		const item = { json: { _webhook: { deliveryKey: 'id:abc' } } };
		const context = createFilterContext({ store, items: [item, item] });
		expect(await node.execute.call(context)).toEqual([[{ ...item, pairedItem: { item: 0 } }]]);
	});
});
