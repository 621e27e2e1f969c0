import type { IN8nHttpFullResponse, NodeApiError } from 'n8n-workflow';

import { ROOMS_PATH } from '../../nodes/VideoPlatform/platform';
import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { createExecuteContext } from './executeContext';
import { SANDBOX_KEY } from './sandbox';

/** The client's one option: a clock that does not wait for real, shorter limits. */
export type ClientOptions = ConstructorParameters<typeof PlatformClient>[2];

export const createRoom = { method: 'POST' as const, path: ROOMS_PATH, body: { name: 'Biology', type: 'conference' } };

/** What every error after which the room may exist says. */
export const MAY_HAVE_CREATED_ROOM =
	'The platform may have created the room; it was not sent again. Check the platform before you run this item again.';

/** Where a Room → Create goes: the credential's Base URL and API key, and the item it is for. */
export interface RoomCreateAt {
	itemIndex: number;
	baseUrl: string;
	secret: string;
}

/** The Room → Create whose failures the error wording tests read: item 2, to https://video.example.com/v1/rooms. */
export const failedCreateRoom: RoomCreateAt = { itemIndex: 2, baseUrl: 'https://video.example.com', secret: 'sk_live_secret' };

/** What n8n's client hands the node for a request (`encoding: 'stream'` allows a buffer or text too), or what it throws. */
export type CraftedAnswer = Pick<IN8nHttpFullResponse, 'statusCode' | 'headers' | 'body'> | { throws: unknown };

/** Sends one Room → Create through a mocked n8n whose client answers as crafted, expects it to fail, and returns the error. */
export async function createRoomFailureOn(answer: CraftedAnswer, at: RoomCreateAt = failedCreateRoom, options?: ClientOptions): Promise<NodeApiError> {
	const http = async () => {
		if ('throws' in answer) throw answer.throws;
		return answer;
	};
	const context = createExecuteContext({ credentials: { baseUrl: at.baseUrl, apiKey: at.secret }, http });
	return await expectFailure(new PlatformClient(context, 'room', options).request(createRoom, at.itemIndex));
}

async function expectFailure(request: Promise<unknown>): Promise<NodeApiError> {
	return await request.then(
		() => {
			throw new Error('expected the request to fail');
		},
		(error: NodeApiError) => error,
	);
}

/** Sends one Room → Create through n8n's real client, expects it to fail, and returns the error. */
export async function createRoomFailure(
	baseUrl: string,
	options?: ClientOptions,
	apiKey = SANDBOX_KEY,
): Promise<NodeApiError> {
	const context = createExecuteContext({ credentials: { baseUrl, apiKey } });
	return await expectFailure(new PlatformClient(context, 'room', options).request(createRoom, 0));
}
