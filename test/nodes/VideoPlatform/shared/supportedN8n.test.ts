import * as fs from 'node:fs';
import * as path from 'node:path';

import { repoRoot } from '../../../../tools/common/paths';

/** engines.n8n's lower bound in package.json: the oldest n8n the package is tested on. */
const OLDEST_SUPPORTED_N8N = /^>=(\S+)/.exec(JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).engines.n8n)?.[1];

// An n8n older than 1.85 ships an n8n-workflow without NodeConnectionTypes: both nodes must then
// refuse to load with a message that names the version to update to, before any other module runs.
const nodeFiles = ['VideoPlatform.node', 'VideoPlatformTrigger.node'];

describe('an n8n older than the package supports', () => {
	afterEach(() => jest.resetModules());

	it.each(nodeFiles)('%s refuses to load and says which n8n it needs', (file) => {
		jest.doMock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), NodeConnectionTypes: undefined }));
		jest.isolateModules(() => {
			expect(() => jest.requireActual(`../../../../nodes/VideoPlatform/${file}`)).toThrow(
				new Error(
					`n8n-nodes-videoplatform needs n8n ${OLDEST_SUPPORTED_N8N} or newer, and this n8n is older (its n8n-workflow has no NodeConnectionTypes). Update n8n and restart it; the package itself needs no change.`,
				),
			);
		});
		jest.dontMock('n8n-workflow');
	});

	it.each(nodeFiles)('%s loads in an n8n that has NodeConnectionTypes', (file) => {
		jest.isolateModules(() => {
			expect(() => jest.requireActual(`../../../../nodes/VideoPlatform/${file}`)).not.toThrow();
		});
	});
});
