import type { ICredentialTestFunctions } from 'n8n-workflow';

import { VideoPlatformTrigger } from '../../../nodes/VideoPlatform/VideoPlatformTrigger.node';
import { subtitleOf } from '../../helpers/subtitle';

const trigger = new VideoPlatformTrigger();

describe('Video Platform Trigger in the editor', () => {
	// What each setting shows: trigger/properties.test.ts.
	it('shows the subtitle of its fields', () => {
		expect(subtitleOf(trigger, { event: '*', options: { filterField: 'data.status', filterValues: 'started' } })).toBe('When data.status is started');
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
