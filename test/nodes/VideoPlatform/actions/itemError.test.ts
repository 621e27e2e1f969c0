import fc from 'fast-check';
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asItemError, errorToJson } from '../../../../nodes/VideoPlatform/actions/itemError';
import { itemError } from '../../../../nodes/VideoPlatform/transport/client';
import { ANGLE_BRACKETS, outsideTextWithMarkup } from '../../../helpers/outsideText';

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

/** What n8n's expression engine throws: a runtime TypeError as it is, or an error with a description. */
const foreignErrors = fc.tuple(outsideTextWithMarkup, outsideTextWithMarkup).chain(([message, description]) =>
	fc.constantFrom<unknown>(
		new TypeError(`Cannot read properties of undefined (reading '${message}')`),
		Object.assign(new Error(message), { description }),
		message,
	),
);

describe('asItemError (with errorToJson)', () => {
	it("quotes a foreign error's message and description: no markup, the item named, n8n's item index kept", () => {
		fc.assert(
			fc.property(foreignErrors, fc.nat(1000), (caught, itemIndex) => {
				const error = asItemError(node, caught, itemIndex);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error.context.itemIndex).toBe(itemIndex);
				expect(error.message).toMatch(new RegExp(`\\[item ${itemIndex}\\]$`));
				const shown = [error.message, error.description ?? '', JSON.stringify(errorToJson(error))];
				expect(shown.filter((text) => ANGLE_BRACKETS.test(text))).toEqual([]);
			}),
		);
	});

	it('keeps the words of a foreign error, with the brackets as look-alikes', () => {
		const error = asItemError(node, new TypeError("Cannot read properties of undefined (reading '<b>x</b>')"), 2);
		expect(error.message).toBe("Cannot read properties of undefined (reading '\u2039b\u203Ax\u2039/b\u203A') [item 2]");
	});

	it("keeps the node's own errors as they are", () => {
		const own = itemError(node, 1, 'The Name field must be text', 'Set it.');
		const api = new NodeApiError(node, { message: 'x' }, { itemIndex: 1 });
		expect(asItemError(node, own, 1)).toBe(own);
		expect(asItemError(node, api, 1)).toBe(api);
	});
});
