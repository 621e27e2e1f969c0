import type { ICredentialTestFunctions, INode, INodeParameters, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { EVENT_KINDS } from '../../../nodes/VideoPlatform/platform';
import { VideoPlatformTrigger } from '../../../nodes/VideoPlatform/VideoPlatformTrigger.node';

const trigger = new VideoPlatformTrigger();
const { description } = trigger;

describe('Video Platform Trigger description', () => {
	it('follows the trigger conventions', () => {
		expect(description.name).toBe('videoPlatformTrigger');
		expect(description.displayName).toContain('Trigger');
		expect(description.inputs).toEqual([]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.webhooks).toEqual([
			expect.objectContaining({ name: 'default', httpMethod: 'POST', responseMode: 'onReceived' }),
		]);
	});

	it.each([
		[{ event: '*', options: {} }, 'All deliveries'],
		[{ event: '*' }, 'All deliveries'],
		[{ event: '*', options: { filterField: 'data.status' } }, 'All deliveries'],
		[{ event: '*', options: { filterField: 'data.status', filterValues: 'started, ended' } }, 'When data.status is started, ended'],
		[{ event: 'room.started', options: {} }, 'On: room.started'],
	])('shows a subtitle in the editor that says what starts the workflow: %j', (parameters, shown) => {
		// Evaluated as the editor does: n8n's own expression engine over the node's parameters.
		const node: INode = { id: '1', name: 'T', type: 't', typeVersion: 1, position: [0, 0], parameters: parameters as INodeParameters };
		const nodeTypes = { getByName: () => trigger, getByNameAndVersion: () => trigger } as unknown as INodeTypes;
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		expect(workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {})).toBe(shown);
	});

	it('offers only All Deliveries until event kinds are published', () => {
		const event = description.properties.find((p) => p.name === 'event');
		expect(EVENT_KINDS).toEqual([]);
		expect(event?.options).toEqual([{ name: 'All Deliveries', value: '*' }]);
	});

	it('tells the user to register the production URL by hand', () => {
		const notice = description.properties.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/Production URL/);
	});

	it('registers nothing on the platform: no registration endpoint is published', async () => {
		const hooks = trigger.webhookMethods.default;
		await expect(hooks.checkExists()).resolves.toBe(true);
		await expect(hooks.create()).resolves.toBe(true);
		await expect(hooks.delete()).resolves.toBe(true);
	});

	it('tests the secret credential locally and says what that proves', async () => {
		const test = trigger.methods.credentialTest.videoPlatformWebhookApiTest;
		const ctx = {} as ICredentialTestFunctions;
		const ok = await test.call(ctx, { id: '1', name: 'c', type: 't', data: { headerName: 'X-S', secret: 'v' } });
		const noHeader = await test.call(ctx, { id: '1', name: 'c', type: 't', data: { headerName: ' ', secret: 'v' } });
		const blank = await test.call(ctx, { id: '1', name: 'c', type: 't', data: { headerName: 'X-S', secret: '  ' } });
		expect(ok.status).toBe('OK');
		expect(ok.message).toMatch(/checked on each delivery/);
		expect(noHeader).toEqual({ status: 'Error', message: 'Enter a header name.' });
		expect(blank).toEqual({
			status: 'Error',
			message: 'Enter a secret. Spaces around it are ignored, so a secret of only spaces is empty.',
		});
	});
});
