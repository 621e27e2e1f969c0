import { readdirSync } from 'node:fs';
import path from 'node:path';

import { findOperation, resources } from '../../../../nodes/VideoPlatform/actions/resources';

const ACTIONS = path.join(__dirname, '../../../../nodes/VideoPlatform/actions');

describe('resource registry', () => {
	// The compiler checks a registered operation's shape, not that a new file was registered.
	it('registers every <operation>.operation.ts of every resource folder under its file name', () => {
		const files = readdirSync(ACTIONS, { withFileTypes: true })
			.filter((entry) => entry.isDirectory())
			.flatMap((folder) =>
				readdirSync(path.join(ACTIONS, folder.name))
					.filter((file) => file.endsWith('.operation.ts'))
					.map((file) => `${folder.name}/${file.replace(/\.operation\.ts$/, '')}`),
			);
		const registered = Object.entries(resources).flatMap(([resource, operations]) => Object.keys(operations).map((operation) => `${resource}/${operation}`));
		expect(files.sort()).toEqual(registered.sort());
		for (const name of files) expect(findOperation(...(name.split('/') as [string, string]))).toBeDefined();
	});

	it('finds no operation for unknown names, nor for names every object has', () => {
		expect(findOperation('room', 'get')).toBeUndefined();
		expect(findOperation('meeting', 'create')).toBeUndefined();
		expect(findOperation('room', 'toString')).toBeUndefined();
		expect(findOperation('constructor', 'create')).toBeUndefined();
		expect(findOperation('__proto__', 'create')).toBeUndefined();
	});
});
