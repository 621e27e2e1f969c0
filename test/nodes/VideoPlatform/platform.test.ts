import { API_VERSION_PREFIX, EVENT_KIND_FIELD, EVENT_KINDS, ROOM_TYPES, ROOMS_PATH } from '../../../nodes/VideoPlatform/platform';

// What the platform's API reference states, checked against its words; nothing it leaves open.
describe("the platform's API, as its reference states it", () => {
	it('versions every path with /v1 directly after the Base URL, and creates rooms at /v1/rooms', () => {
		expect(API_VERSION_PREFIX).toBe('/v1');
		expect(ROOMS_PATH).toBe('/v1/rooms');
	});

	it('lists conference as the one room type it publishes', () => {
		expect(ROOM_TYPES).toEqual([{ name: 'Conference', value: 'conference' }]);
	});

	// Trigger On filters by EVENT_KIND_FIELD: kinds without their field, or a field without kinds, would filter wrongly.
	it('publishes event kinds and the field naming them together, or neither (today neither)', () => {
		expect(EVENT_KINDS.length > 0).toBe(EVENT_KIND_FIELD !== undefined);
		expect(EVENT_KINDS).toEqual([]);
	});
});
