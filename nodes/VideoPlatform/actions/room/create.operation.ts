import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ROOM_TYPES, ROOMS_PATH } from '../../platform';
import type { PlatformRequester } from '../../transport/client';
import { concurrencyOption } from '../concurrency';
import { readTextParameter } from '../parameters';
import { responseToJson } from '../responseToJson';
import { guardRun } from './oncePerKey/guard';
import { createOncePerKeyOption } from './oncePerKey/option';

export const listing = { name: 'Create', description: 'Create a room', action: 'Create a room' };

export const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Biology 101 - Monday',
		description: 'The name of the room',
		builderHint: {
			propertyHint:
				"The name people see for the room, such as a class or meeting title. Map it from the input item, e.g. a calendar event's summary; an empty name is sent as empty text.",
		},
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: ROOM_TYPES,
		default: 'conference',
		description:
			'The kind of room. The platform has published only Conference so far; to send another value, use an expression.',
		builderHint: {
			propertyHint: "Keep 'conference', the only type the platform has published. Another value is sent as it is, and the platform may refuse it.",
		},
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		// In alphabetical order, as n8n lists the options once added.
		options: [createOncePerKeyOption, concurrencyOption],
	},
];

export const kind = 'item';

export const creates = 'room';

export { guardRun };

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	platform: PlatformRequester,
): Promise<IDataObject> {
	const body = {
		name: readTextParameter.call(this, 'name', 'Name', itemIndex),
		type: readTextParameter.call(this, 'type', 'Type', itemIndex),
	};
	const response = await platform.request({ method: 'POST', path: ROOMS_PATH, body });
	return responseToJson(response);
}
