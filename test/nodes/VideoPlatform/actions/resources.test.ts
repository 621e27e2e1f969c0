import { readdirSync } from 'node:fs';
import path from 'node:path';

import { findOperation, resources, resourcesWithoutRequests } from '../../../../nodes/VideoPlatform/actions/resources';

const ACTIONS = path.join(__dirname, '../../../../nodes/VideoPlatform/actions');

describe('resource registry', () => {
	it('keys each resource by its value in the Resource list', () => {
		for (const [name, entry] of Object.entries(resources)) expect(entry.resource.value).toBe(name);
	});

	it('counts as sending no request only resources whose operations are all batch ones', () => {
		expect(resourcesWithoutRequests).toEqual(['webhookDelivery']);
	});

	// The compiler checks a registered operation's shape, not that a new file was registered.
	it('registers every <operation>.operation.ts of every resource folder under its file name', () => {
		const files = readdirSync(ACTIONS, { withFileTypes: true })
			.filter((entry) => entry.isDirectory())
			.flatMap((folder) =>
				readdirSync(path.join(ACTIONS, folder.name))
					.filter((file) => file.endsWith('.operation.ts'))
					.map((file) => `${folder.name}/${file.replace(/\.operation\.ts$/, '')}`),
			);
		const registered = Object.entries(resources).flatMap(([resource, entry]) => Object.keys(entry.operations).map((operation) => `${resource}/${operation}`));
		expect(files.sort()).toEqual(registered.sort());
		for (const name of files) expect(findOperation(...(name.split('/') as [string, string]))).toBeDefined();
	});
});
