import type { ICredentialTestFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ALL_DELIVERIES, AUTHENTICATION } from '../../../nodes/VideoPlatform/trigger/choices';
import { VideoPlatformTrigger } from '../../../nodes/VideoPlatform/VideoPlatformTrigger.node';
import { shownHints } from '../../helpers/nodeHints';
import { subtitleOf } from '../../helpers/subtitle';

const trigger = new VideoPlatformTrigger();
const { properties } = trigger.description;
const field = (name: string) => properties.find((p) => p.name === name) as INodeProperties;
const values = (property: INodeProperties) => (property.options as INodePropertyOptions[]).map((o) => o.value);
const NO_SECRET = expect.stringMatching(/^Authentication is None: anyone who knows/);

describe('Video Platform Trigger in the editor', () => {
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

	const testWith = async (data: { headerName: string; secret: string }) =>
		await trigger.methods.credentialTest.videoPlatformWebhookApiTest.call({} as ICredentialTestFunctions, {
			id: '1',
			name: 'c',
			type: 't',
			data,
		});

	it.each(['X Webhook Secret', 'X-Secret:', 'X-Sécret', '(secret)', 'X-Sec\nret', 'X/Secret'])(
		'fails the Test for the header name %p, which is not an HTTP header name',
		async (headerName) => {
			expect(await testWith({ headerName, secret: 'v' })).toEqual({
				status: 'Error',
				message:
					"The header name can have only letters, digits and these characters: ! # $ % & ' * + - . ^ _ ` | ~ (no spaces or colons).",
			});
		},
	);

	it.each(["X-Webhook-Secret", "x_secret", "X-Hub-Signature-256", "!#$%&'*+-.^_`|~"])(
		'passes the Test for the header name %p',
		async (headerName) => {
			expect((await testWith({ headerName: ` ${headerName} `, secret: 'v' })).status).toBe('OK');
		},
	);

	it.each(['sécret', 'secret\u00a0x', 'tab\tinside', '✓'])('fails the Test for the secret %p, which a header cannot carry', async (secret) => {
		const result = await testWith({ headerName: 'X-S', secret });
		expect(result).toEqual({
			status: 'Error',
			message:
				'The secret can have only plain ASCII letters, digits, spaces and punctuation: HTTP headers cannot carry other characters reliably.',
		});
		expect(JSON.stringify(result)).not.toContain(secret);
	});
});

describe('the secret credential’s Test, for a secret too long to be one', () => {
	it('refuses it without quoting it', async () => {
		const result = await new VideoPlatformTrigger().methods.credentialTest.videoPlatformWebhookApiTest.call({} as ICredentialTestFunctions, {
			id: '1',
			name: 'c',
			type: 't',
			data: { headerName: 'X-S', secret: 'w'.repeat(16_385) },
		});
		expect(result).toEqual({
			status: 'Error',
			message: "The secret is longer than 16,384 characters, more than a request's headers can carry. Enter the secret you set on the platform.",
		});
	});
});

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

describe('Video Platform Trigger: the hint about a trigger without a secret', () => {
	it.each([
		['Authentication is None', { authentication: 'none', event: '*' }],
		['Authentication is left at its default in a saved workflow', { event: '*' }],
	])('is shown when %s', (_case, parameters) => {
		expect(shownHints(trigger, parameters)).toEqual([NO_SECRET]);
	});

	it('is not shown with Shared Secret Header', () => {
		expect(shownHints(trigger, { authentication: 'secretHeader', event: '*' })).toEqual([]);
	});
});

describe("the trigger's panel and messages", () => {
	const { triggerPanel, activationMessage, eventTriggerDescription } = trigger.description;
	const panel = triggerPanel as { executionsHelp: { inactive: string }; activationHint: { inactive: string } };

	it('say how to start it with both words n8n uses: Publish (2.x) and Activate (1.x)', () => {
		for (const text of [panel.executionsHelp.inactive, panel.activationHint.inactive]) {
			expect(text).toMatch(/publish the workflow \(n8n 1\.x: activate it\)/);
		}
	});

	it("tell where the Production URL goes without naming a place the spec does not", () => {
		for (const text of [panel.executionsHelp.inactive, panel.activationHint.inactive, activationMessage]) {
			expect(text).toContain("your video platform's webhook or integration settings");
		}
		expect(eventTriggerDescription).toMatch(/Test URL/);
	});
});
