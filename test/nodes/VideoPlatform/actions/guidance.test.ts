import { VideoPlatform } from '../../../../nodes/VideoPlatform/VideoPlatform.node';
import { shownHints } from '../../../helpers/nodeHints';

const node = new VideoPlatform();
const NAME_HINT = expect.stringMatching(/^Name is empty for the first input item/);
const KEY_HINT = expect.stringMatching(/^Delivery Key finds no key in the first input item/);
const DEFAULT_KEY = '={{ $json._webhook.deliveryKey }}';
const fromTrigger = { kind: 'room.ended', _webhook: { deliveryKey: 'id:evt-1', deliveryKeySource: 'id' } };
const fromCalendar = { id: 'evt-1', summary: 'Biology 7A' };

describe('Room → Create: the hint about an empty Name', () => {
	const create = (name: string) => ({ resource: 'room', operation: 'create', name, type: 'conference' });

	it.each([
		['empty', create(''), []],
		['only spaces', create('   '), []],
		['missing, as in a saved workflow that left out the defaults', {}, []],
		['an expression for a field the input item does not have', create('={{ $json.title }}'), [fromCalendar]],
		['an expression that gives only spaces', create('={{ $json.summary }}'), [{ summary: '  ' }]],
	])('is shown when Name is %s', (_case, parameters, input) => {
		expect(shownHints(node, parameters, input)).toEqual([NAME_HINT]);
	});

	it.each([
		['text', create('Biology 7A'), []],
		['an expression that finds the field', create('={{ $json.summary }}'), [fromCalendar]],
		['a number from an expression', create('={{ $json.room }}'), [{ room: 7 }]],
		['an expression, and the previous node has not run yet', create('={{ $json.summary }}'), []],
	])('is not shown when Name is %s', (_case, parameters, input) => {
		expect(shownHints(node, parameters, input)).toEqual([]);
	});

	it('is not shown for Drop Redelivered, which has no Name', () => {
		expect(shownHints(node, { resource: 'webhookDelivery', operation: 'dropRedelivered', deliveryKey: DEFAULT_KEY }, [fromTrigger])).toEqual([]);
	});
});

describe('Webhook Delivery → Drop Redelivered: the hint about a Delivery Key that finds nothing', () => {
	const drop = (deliveryKey: string) => ({ resource: 'webhookDelivery', operation: 'dropRedelivered', deliveryKey });

	it.each([
		['the default key after another trigger', drop(DEFAULT_KEY), [fromCalendar]],
		['an empty key', drop(''), [fromTrigger]],
		['a key expression for a field the item does not have', drop('={{ $json.eventId }}'), [fromCalendar]],
	])('is shown for %s', (_case, parameters, input) => {
		expect(shownHints(node, parameters, input)).toEqual([KEY_HINT]);
	});

	it.each([
		['the default key right after the Video Platform Trigger', drop(DEFAULT_KEY), [fromTrigger]],
		["another trigger's own ID field", drop('={{ $json.id }}'), [fromCalendar]],
		['the default key while the previous node has not run yet', drop(DEFAULT_KEY), []],
	])('is not shown for %s', (_case, parameters, input) => {
		expect(shownHints(node, parameters, input)).toEqual([]);
	});
});
