import type { NodeApiError } from 'n8n-workflow';

import { ROOMS_PATH } from '../../nodes/VideoPlatform/platform';
import type { FailedRequest } from '../../nodes/VideoPlatform/transport/messages';
import type { PlatformClientFactory, TransportSeams } from '../../nodes/VideoPlatform/transport';
import { PlatformClient } from '../../nodes/VideoPlatform/transport';
import { PacerRegistry } from '../../nodes/VideoPlatform/transport/pacer';
import type { Clock } from '../../nodes/VideoPlatform/transport/stop';
import { createExecuteContext, testNode } from './executeContext';
import { fakeClock, SANDBOX_KEY } from './sandbox';

/**
 * What the router builds its runs' clients with in tests: pacers of the test's own, not the
 * process-wide ones, and a fake clock by default, so that waits for a 429 cost nothing.
 */
export function testClients(clock: Clock = fakeClock()): PlatformClientFactory {
	const pacers = new PacerRegistry(clock);
	return (context, creates) => new PlatformClient(context, creates, { clock, pacers });
}

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
	seams?: TransportSeams,
	apiKey = SANDBOX_KEY,
): Promise<NodeApiError> {
	const context = createExecuteContext({ credentials: { baseUrl, apiKey } });
	return await new PlatformClient(context, 'room', seams).request(createRoom, 0).then(
		() => {
			throw new Error('expected the request to fail');
		},
		(error: NodeApiError) => error,
	);
}
