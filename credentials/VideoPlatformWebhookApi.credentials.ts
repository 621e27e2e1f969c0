import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { WEBHOOK_CREDENTIAL } from '../nodes/VideoPlatform/shared/credentials';

/**
 * A shared secret that deliveries must carry in a header. The platform has not published a
 * signature scheme, so this is the generic stand-in; the secret lives in a credential so that
 * n8n encrypts it and it is not exported with the workflow.
 */
export class VideoPlatformWebhookApi implements ICredentialType {
	name = WEBHOOK_CREDENTIAL.type;

	displayName = WEBHOOK_CREDENTIAL.displayName;

	icon: Icon = {
		light: 'file:../nodes/VideoPlatform/videoPlatform.svg',
		dark: 'file:../nodes/VideoPlatform/videoPlatform.dark.svg',
	};

	documentationUrl = 'https://github.com/videoplatform/n8n-nodes-videoplatform#video-platform-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Header Name',
			name: 'headerName',
			type: 'string',
			default: 'X-Webhook-Secret',
			required: true,
			placeholder: 'e.g. X-Webhook-Secret',
			description: 'The request header in which the platform sends the secret',
		},
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The value the header must have. Enter the same value in the platform\'s webhook settings.',
		},
	];
}
