import fc from 'fast-check';
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorToJson, itemError, namingItem } from '../../../../nodes/VideoPlatform/shared/itemError';
import { anyText } from '../../../helpers/unicode';

const node: INode = { id: 'n', name: 'Video Platform', type: 'n8n-nodes-videoplatform.videoPlatform', typeVersion: 1, position: [0, 0], parameters: {} };

describe('namingItem', () => {
	it('ends any message with the item it is about', () => {
		fc.assert(fc.property(anyText(), fc.nat(10_000), (message, itemIndex) => expect(namingItem(message, itemIndex)).toBe(`${message} [item ${itemIndex}]`)));
	});
});

describe('itemError', () => {
	it("is the node's own error for the item: its message names the item, n8n gets the item index and the advice", () => {
		fc.assert(
			fc.property(anyText({ minLength: 1 }), anyText({ minLength: 1 }), fc.nat(10_000), (message, description, itemIndex) => {
				const error = itemError(node, itemIndex, message, description);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error.message).toBe(`${message} [item ${itemIndex}]`);
				expect(error.description).toBe(description);
				expect(error.context.itemIndex).toBe(itemIndex);
			}),
		);
	});
});

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
