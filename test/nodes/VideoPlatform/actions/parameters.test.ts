import fc from 'fast-check';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readTextParameter } from '../../../../nodes/VideoPlatform/actions/parameters';
import { testNode } from '../../../helpers/executeContext';
import { anyText } from '../../../helpers/unicode';

/** The parameter `name` of item `itemIndex` as n8n gives it: typed, or the value an expression gave. */
const read = (value: unknown, label = 'Name', itemIndex = 0) =>
	readTextParameter.call(
		{ getNode: () => testNode, getNodeParameter: (name: string, i: number) => (name === 'name' && i === itemIndex ? value : undefined) } as unknown as IExecuteFunctions,
		'name',
		label,
		itemIndex,
	);

describe('readTextParameter', () => {
	it('gives any text as it is', () => {
		fc.assert(fc.property(anyText(), (text) => expect(read(text)).toBe(text)));
	});

	it.each([
		[101, '101'],
		[3.5, '3.5'],
		[true, 'true'],
		[null, ''],
		[undefined, ''],
	])('sends the expression value %p as the string %p', (value, sent) => {
		expect(read(value)).toBe(sent);
	});

	it.each([
		[{ first: 'a' }, 'an object'],
		[['a', 'b'], 'a list'],
	])('refuses %p with a clear error naming the field and the item', (value, kind) => {
		const error = (() => {
			try {
				return read(value, 'Type', 3);
			} catch (caught) {
				return caught;
			}
		})();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(`The Type field must be text, but it is ${kind} [item 3]`);
		expect((error as NodeOperationError).description).toMatch(/^If Type comes from an expression, point it at a single value/);
		expect((error as NodeOperationError).context.itemIndex).toBe(3);
	});
});
