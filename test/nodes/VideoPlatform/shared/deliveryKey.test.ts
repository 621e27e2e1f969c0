import { comparedKey, textDeliveryKeyIn } from '../../../../nodes/VideoPlatform/shared/deliveryKey';

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
