import { comparedKey, textDeliveryKeyIn } from '../../../../nodes/VideoPlatform/shared/deliveryKey';

describe("the contract's names", () => {
	it('are the item paths and expression that saved workflows and the docs hold', () => {
		// Loaded inside the test, so that the names count as this test's: read at load time only, a
		// changed name would be checked by no test in a mutant's run (docs/development.md, "Mutation testing").
		jest.isolateModules(() => {
			const contract = jest.requireActual<typeof import('../../../../nodes/VideoPlatform/shared/deliveryKey')>('../../../../nodes/VideoPlatform/shared/deliveryKey');
			expect(contract.DELIVERY_INFO_KEY).toBe('_webhook');
			expect(contract.DELIVERY_KEY_PATH).toBe('_webhook.deliveryKey');
			expect(contract.DELIVERY_KEY_EXPRESSION).toBe('{{ $json._webhook.deliveryKey }}');
			expect(contract.UNMATCHABLE_KEY_PREFIX).toBe('none:');
		});
	});
});

describe('textDeliveryKeyIn', () => {
	it("reads no key, and does not fail, from an item without the trigger's details or with null, text or a number there", () => {
		expect([{}, { _webhook: null }, { _webhook: 'id:1' }, { _webhook: 7 }].map(textDeliveryKeyIn)).toEqual([undefined, undefined, undefined, undefined]);
	});

	it("reads the trigger's text key, and nothing else", () => {
		expect(textDeliveryKeyIn({ _webhook: { deliveryKey: 'id:abc' } })).toBe('id:abc');
		expect(textDeliveryKeyIn({ _webhook: { deliveryKey: 7 } })).toBeUndefined();
	});
});

describe('compared key', () => {
	it.each([
		['body:abc', 'body:abc'],
		['  id:abc ', 'id:abc'],
		['', null],
		[' ', null],
		['none:0b8e', null],
	])('%p compares as %p', (key, compared) => {
		expect(comparedKey(key)).toBe(compared);
	});
});
