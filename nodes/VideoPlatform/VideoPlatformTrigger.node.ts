import './shared/supportedN8n';
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { triggerGuidance } from './trigger/guidance';
import { AUTHENTICATION, properties, subtitle } from './trigger/properties';
import { secretCredentialProblem } from './trigger/secret';
import { handleDelivery } from './trigger/webhook';
import { WEBHOOK_CREDENTIAL } from './shared/credentials';

export class VideoPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Platform Trigger',
		name: 'videoPlatformTrigger',
		icon: { light: 'file:videoPlatform.svg', dark: 'file:videoPlatform.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves as 1 does. At 1.1 n8n evaluates no expression per delivery to read the body,
		// and leaves the bodies it does not parse to the node (trigger/body.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle,
		// The node creator lists the two nodes as one entry, "Video Platform", with this text, also
		// where a newcomer looks for Create a room: so it names both.
		description: 'Create rooms on your video platform, and start workflows when it sends a webhook delivery',
		defaults: { name: 'Video Platform Trigger' },
		// Editor texts and the AI builder's hint (trigger/guidance.ts); n8n versions without a field ignore it.
		...triggerGuidance,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: WEBHOOK_CREDENTIAL.type,
				required: true,
				testedBy: 'videoPlatformWebhookApiTest',
				displayOptions: { show: { authentication: [AUTHENTICATION.secretHeader] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty, so that n8n answers with the node's own acknowledgement instead of its
				// default ("firstEntryJson"), which it would send as literal text.
				responseData: '',
				path: 'webhook',
			},
		],
		properties,
	};

	methods = {
		credentialTest: {
			/** Nothing on the platform can check the secret; this checks that it is usable. */
			async videoPlatformWebhookApiTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const { headerName, secret } = credential.data ?? {};
				const problem = secretCredentialProblem(headerName, secret);
				if (problem) return { status: 'Error', message: problem };
				return {
					status: 'OK',
					message: 'The secret is set. It is checked on each delivery; the platform cannot be asked.',
				};
			},
		},
	};

	/**
	 * The platform publishes no API for registering webhooks, so registration is manual and
	 * these hooks only report that: they call nothing.
	 */
	webhookMethods = {
		default: {
			async checkExists(): Promise<boolean> {
				return true;
			},
			async create(): Promise<boolean> {
				return true;
			},
			async delete(): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleDelivery.call(this);
	}
}
