import type { INodeProperties } from 'n8n-workflow';

import { VideoPlatformWebhookApi } from '../../credentials/VideoPlatformWebhookApi.credentials';

// Made in each test, not when the file loads: mutation testing counts what runs outside a test as
// covered by no test, and would not run these tests against the credential's mutants.
let credential: VideoPlatformWebhookApi;
beforeEach(() => {
	credential = new VideoPlatformWebhookApi();
});
const field = (name: string) => credential.properties.find((p) => p.name === name) as INodeProperties;

describe('VideoPlatformWebhookApi credential', () => {
	it('has the public names workflows depend on', () => {
		expect(credential.name).toBe('videoPlatformWebhookApi');
		expect(credential.properties.map((p) => p.name)).toEqual(['headerName', 'secret']);
	});

	it('asks for both, and offers the header name most platforms use', () => {
		expect(credential.properties.map((p) => p.required)).toEqual([true, true]);
		expect(field('headerName').default).toBe('X-Webhook-Secret');
	});

	it('masks the secret in the editor and keeps no default one', () => {
		expect(field('secret').typeOptions?.password).toBe(true);
		expect(field('secret').default).toBe('');
	});
});
