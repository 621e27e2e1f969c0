import path from 'node:path';

import { importCircles, sourceFiles } from '../../tools/checks/size';

const ROOT = path.join(__dirname, '../..');

describe('imports between the nodes and credentials (cross-module)', () => {
	// A circle makes a module's value undefined while the other loads; a type-only one still
	// means neither file reads alone.
	it('form no circle, type-only imports included', () => {
		const files = ['nodes', 'credentials'].flatMap((folder) => sourceFiles(path.join(ROOT, folder)));
		expect(files.length).toBeGreaterThan(40);
		expect(importCircles(files)).toEqual([]);
	});
});
