import { API_CREDENTIAL, IN_API_CREDENTIAL, WEBHOOK_CREDENTIAL } from '../../../../nodes/VideoPlatform/shared/credentials';

describe("the credential types' names", () => {
	// A contract, not a restatement: n8n stores the type with every workflow that uses the credential.
	it('are the types saved workflows hold, and the names the editor lists', () => {
		expect(API_CREDENTIAL).toEqual({ type: 'videoPlatformApi', displayName: 'Video Platform API' });
		expect(WEBHOOK_CREDENTIAL).toEqual({ type: 'videoPlatformWebhookApi', displayName: 'Video Platform Webhook API' });
	});

	it("end the messages' advice with the API credential's name as the editor lists it", () => {
		expect(IN_API_CREDENTIAL).toBe('in the Video Platform API credential');
	});
});
