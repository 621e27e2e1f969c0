import { NodeOperationError } from 'n8n-workflow';

import { apiKeyProblem, normalizeApiKey } from '../../../../nodes/VideoPlatform/shared/apiKey';
import { PlatformClient } from '../../../../nodes/VideoPlatform/transport/client';
import { createExecuteContext, testNode } from '../../../helpers/executeContext';
import { createRoom } from '../../../helpers/platformClient';
import { startSandbox } from '../../../helpers/sandbox';

const KEY = 'sk_live_0123456789abcdef';

describe('normalizeApiKey', () => {
	it.each([
		['abc123', 'abc123'],
		['  abc123  ', 'abc123'],
		['Bearer abc123', 'abc123'],
		['bearer    abc123 ', 'abc123'],
		['BEARER abc123', 'abc123'],
		['Bearerabc123', 'Bearerabc123'],
		['Bearer ', ''],
		[' bearer', ''],
	])('%p becomes %p', (raw, expected) => {
		expect(normalizeApiKey(raw)).toBe(expected);
	});
});

/** Item 3's Room → Create with this API key; a refused key fails before anything is sent. */
async function createRoomWithKey(apiKey: string, baseUrl = 'https://video.example.com') {
	return await new PlatformClient(createExecuteContext({ credentials: { baseUrl, apiKey } }), 'room').request(createRoom, 3);
}

describe('the API key rule', () => {
	it.each(['', '   ', 'Bearer ', 'Bearer', ' bearer   ', '\t'])('refuses the empty key %p', async (raw) => {
		await expect(createRoomWithKey(raw)).rejects.toThrow(
			new NodeOperationError(testNode, 'The API key in the Video Platform API credential is empty [item 3]'),
		);
	});

	it.each([
		['k', '1 character'],
		['Bearer 1', '1 character'],
		['  sk_1234 ', '7 characters'],
	])('refuses the key %p as too short (%s)', async (raw, length) => {
		await expect(createRoomWithKey(raw)).rejects.toThrow(
			new NodeOperationError(
				testNode,
				`The API key in the Video Platform API credential is too short to be an API key (${length}) [item 3]`,
			),
		);
	});

	it('says why a short key is refused, without quoting it', () => {
		const description = apiKeyProblem('sk_1234')?.description ?? '';
		expect(description).toMatch(/^Copy the whole API key from the platform/);
		expect(description).toMatch(/the node's own rule/);
		expect(description).toMatch(/publishes none/);
		expect(description).not.toContain('sk_1234');
	});

	it('accepts a key of 8 characters, the fewest it takes', () => {
		expect(apiKeyProblem('sk_12345')).toBeUndefined();
	});

	it('says how to fix an empty key', () => {
		expect(apiKeyProblem('')?.description).toMatch(/^Paste the API key your platform issued/);
	});

	it('accepts a key of visible ASCII, and sends it without the Bearer the user pasted', async () => {
		const sandbox = await startSandbox({ apiKey: KEY });
		try {
			expect((await createRoomWithKey(`Bearer ${KEY}`, sandbox.url)).statusCode).toBe(201);
			expect(sandbox.state.requests).toEqual([expect.objectContaining({ path: '/v1/rooms', authorization: 'valid Bearer key', authorizationHeaders: 1 })]);
		} finally {
			await sandbox.stop();
		}
	});
});
