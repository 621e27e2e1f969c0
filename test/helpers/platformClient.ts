import type { NodeApiError } from 'n8n-workflow';

import { ROOMS_PATH } from '../../nodes/VideoPlatform/platform';
import type { FailedRequest } from '../../nodes/VideoPlatform/transport/client';
import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { createExecuteContext, testNode } from './executeContext';
import { SANDBOX_KEY } from './sandbox';

/** The client's one option: a clock that does not wait for real, shorter limits. */
export type ClientOptions = ConstructorParameters<typeof PlatformClient>[2];

export const createRoom = { method: 'POST' as const, path: ROOMS_PATH, body: { name: 'Biology', type: 'conference' } };

/** What every error after which the room may exist says. */
export const MAY_HAVE_CREATED_ROOM =
	'The platform may have created the room; it was not sent again. Check the platform before you run this item again.';

/** A failed Room → Create request, as the message catalogue gets it. */
export const failedCreateRoom: FailedRequest = {
	node: testNode,
	itemIndex: 2,
	url: 'https://video.example.com/v1/rooms',
	baseUrl: 'https://video.example.com',
	secret: 'sk_live_secret',
	creates: 'room',
};

/** Sends one Room → Create through n8n's real client, expects it to fail, and returns the error. */
export async function createRoomFailure(
	baseUrl: string,
	options?: ClientOptions,
	apiKey = SANDBOX_KEY,
): Promise<NodeApiError> {
	const context = createExecuteContext({ credentials: { baseUrl, apiKey } });
	return await new PlatformClient(context, 'room', options).request(createRoom, 0).then(
		() => {
			throw new Error('expected the request to fail');
		},
		(error: NodeApiError) => error,
	);
}
