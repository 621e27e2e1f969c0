import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { eventMatches, fieldMatch, parseAllowedValues } from '../../../../nodes/VideoPlatform/trigger/filter';
import { ALL_DELIVERIES } from '../../../../nodes/VideoPlatform/trigger/choices';
import { publishEventKindField } from '../../../helpers/publishedEventKinds';
import { anyCodePoint, anyText } from '../../../helpers/unicode';

jest.mock('../../../../nodes/VideoPlatform/platform', () => jest.requireActual<typeof import('../../../helpers/publishedEventKinds')>('../../../helpers/publishedEventKinds').platformModule());
afterEach(() => publishEventKindField(undefined));

describe('parseAllowedValues', () => {
	it('splits at commas, without the spaces around each value, and leaves out empty ones', () => {
		expect(parseAllowedValues(' started, ended ,,  ,paused')).toEqual(['started', 'ended', 'paused']);
		expect(parseAllowedValues('')).toEqual([]);
	});

	it('gives back any values, in any script, as typed between the commas', () => {
		const value = anyText({ minLength: 1 }).map((text) => text.trim()).filter((text) => text !== '' && !text.includes(','));
		fc.assert(fc.property(fc.array(value), (values) => expect(parseAllowedValues(values.join(' , '))).toEqual(values)));
	});
});

describe('Only When Field with Has One Of These Values', () => {
	const allowed = parseAllowedValues('started, ended');

	it.each([
		[{ data: { status: 'started' } }, 'match'],
		[{ data: { status: 'ended' } }, 'match'],
		[{ data: { status: 'paused' } }, 'noMatch'],
		[{ data: {} }, 'noMatch'],
		[{ data: { status: { nested: 1 } } }, 'noMatch'],
		[{ data: { status: null } }, 'noMatch'],
	])('%j starts the workflow when it is a match: %p', (payload, expected) => {
		expect(fieldMatch(payload as IDataObject, 'data.status', allowed)).toBe(expected);
	});

	it('compares numbers and true/false as text', () => {
		expect(fieldMatch({ level: 2 }, 'level', ['2'])).toBe('match');
		expect(fieldMatch({ level: 2 }, 'level', ['2.0'])).toBe('noMatch');
		expect(fieldMatch({ live: true }, 'live', ['true'])).toBe('match');
	});

	it('filters nothing while either option is empty, and reads the field without spaces around it', () => {
		fc.assert(fc.property(fc.jsonValue({ stringUnit: anyCodePoint }), anyText(), (payload, value) => expect(fieldMatch({ payload } as IDataObject, '  ', [value])).toBe('match')));
		expect(fieldMatch({ status: 'x' }, 'status', [])).toBe('match');
		expect(fieldMatch({ data: { status: 'started' } }, ' data.status ', allowed)).toBe('match');
	});

	describe('a number beyond 2^53, which JSON.parse rounds', () => {
		const sent = '12345678901234567891';
		const payload = JSON.parse(`{"id":${sent}}`) as IDataObject;
		const rounded = String(payload.id);

		it('matches the text as the body sent it, and not the rounded one', () => {
			expect(fieldMatch(payload, 'id', [sent], `{"id":${sent}}`)).toBe('match');
			expect(fieldMatch(payload, 'id', [rounded], `{"id":${sent}}`)).toBe('noMatch');
		});

		it('without the text as sent: inexact when a value typed is that number (it may have been sent), else no match', () => {
			expect(fieldMatch(payload, 'id', ['other', sent])).toBe('inexact');
			expect(fieldMatch(payload, 'id', ['1'])).toBe('noMatch');
			expect(fieldMatch(payload, 'id', [' '])).toBe('noMatch');
		});

		it('a whole number within 2^53 is exact as parsed, with or without the text', () => {
			expect(fieldMatch({ id: 42 }, 'id', ['42'])).toBe('match');
			expect(fieldMatch({ id: 42 }, 'id', ['42.0'])).toBe('noMatch');
		});
	});
});

describe('Trigger On', () => {
	it('lets every delivery through while the platform publishes no event kinds', () => {
		fc.assert(fc.property(fc.jsonValue({ stringUnit: anyCodePoint }), anyText(), (payload, event) => expect(eventMatches({ payload } as IDataObject, event)).toBe(true)));
		expect(eventMatches({}, ALL_DELIVERIES)).toBe(true);
	});

	it('filters by the field naming the kind once both are published', () => {
		publishEventKindField('event.kind');
		const delivery = { event: { kind: 'room.started' } };
		expect(eventMatches(delivery, 'room.started')).toBe(true);
		expect(eventMatches(delivery, 'room.ended')).toBe(false);
		expect(eventMatches(delivery, ALL_DELIVERIES)).toBe(true);
		// A kind JSON.parse rounded may have been the one asked for: let through, not dropped.
		expect(eventMatches(JSON.parse('{"event":{"kind":12345678901234567891}}'), '12345678901234567891')).toBe(true);
	});
});
