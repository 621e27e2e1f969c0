import fc from 'fast-check';

import { readTriggerOptions } from '../../../../nodes/VideoPlatform/trigger/options';
import { anyCodePoint, anyText } from '../../../helpers/unicode';

const NAMES = { deliveryIdField: 'Delivery ID Field', filterField: 'Only When Field', filterValues: 'Has One Of These Values' };
const isScalar = (value: unknown) => ['string', 'boolean'].includes(typeof value) || (typeof value === 'number' && Number.isFinite(value));

describe("the trigger's Options as a delivery reads them", () => {
	it('are empty when none is set, also when n8n gives no collection at all', () => {
		const none = { deliveryIdField: '', filterField: '', filterValues: [] };
		for (const raw of [{}, undefined, null, 'x', 7]) expect(readTriggerOptions(raw)).toEqual(none);
		expect(readTriggerOptions({ deliveryIdField: null, filterField: undefined, filterValues: null })).toEqual(none);
	});

	it('take any text as typed, and the values separated by commas', () => {
		fc.assert(
			fc.property(anyText(), anyText(), (deliveryIdField, filterField) => {
				expect(readTriggerOptions({ deliveryIdField, filterField, filterValues: ' a ,b,, c ' })).toEqual({ deliveryIdField, filterField, filterValues: ['a', 'b', 'c'] });
			}),
		);
	});

	it('take a list, a number or true/false an expression gave, as text', () => {
		expect(readTriggerOptions({ deliveryIdField: 7, filterField: true, filterValues: [' started ', 2, false, '', ' '] })).toEqual({
			deliveryIdField: '7',
			filterField: 'true',
			filterValues: ['started', '2', 'false'],
		});
		expect(readTriggerOptions({ filterValues: 12.5 })).toEqual({ deliveryIdField: '', filterField: '', filterValues: ['12.5'] });
	});

	it('refuse anything else, naming the first such option as the editor does', () => {
		fc.assert(
			fc.property(fc.constantFrom(...(Object.keys(NAMES) as Array<keyof typeof NAMES>)), fc.anything({ stringUnit: anyCodePoint }), (name, value) => {
				const readable =
					value === undefined || value === null || isScalar(value) || (name === 'filterValues' && Array.isArray(value) && value.every(isScalar));
				expect(readTriggerOptions({ [name]: value })).toEqual(readable ? expect.not.objectContaining({ unreadable: expect.anything() }) : { unreadable: NAMES[name] });
			}),
			{ numRuns: 300 },
		);
		expect(readTriggerOptions({ deliveryIdField: {}, filterField: [], filterValues: {} })).toEqual({ unreadable: 'Delivery ID Field' });
		expect(readTriggerOptions({ filterField: Number.NaN, filterValues: {} })).toEqual({ unreadable: 'Only When Field' });
	});
});
