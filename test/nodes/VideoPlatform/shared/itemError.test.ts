import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorToJson } from '../../../../nodes/VideoPlatform/shared/itemError';
import { itemError } from '../../../../nodes/VideoPlatform/transport/client';

const node: INode = { id: 'n', name: 'Video Platform', type: 'n8n-nodes-videoplatform.videoPlatform', typeVersion: 1, position: [0, 0], parameters: {} };

describe('errorToJson', () => {
	it("gives a failed item the message, the advice and the platform's HTTP status as a number", () => {
		const error = new NodeApiError(node, { message: 'x' }, { message: 'The platform refused the room [item 2]', description: 'Fix the name.', httpCode: '422', itemIndex: 2 });
		expect(errorToJson(error)).toEqual({ error: { message: 'The platform refused the room [item 2]', description: 'Fix the name.', httpCode: 422 } });
	});

	it("gives the node's own errors, and errors without advice, null where there is nothing to say", () => {
		expect(errorToJson(itemError(node, 0, 'The Name field must be text', 'Set it.'))).toEqual({
			error: { message: 'The Name field must be text [item 0]', description: 'Set it.', httpCode: null },
		});
		expect(errorToJson(new NodeOperationError(node, 'Stopped'))).toEqual({ error: { message: 'Stopped', description: null, httpCode: null } });
		expect(errorToJson(new NodeApiError(node, { message: 'x' }, { message: 'No answer' }))).toMatchObject({ error: { httpCode: null } });
	});
});
