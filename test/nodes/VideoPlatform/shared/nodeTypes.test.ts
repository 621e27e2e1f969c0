import * as fs from 'node:fs';
import * as path from 'node:path';

import { VideoPlatform } from '../../../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../../../nodes/VideoPlatform/VideoPlatformTrigger.node';
import { ACTION_NODE_TYPE, TRIGGER_NODE_TYPE } from '../../../../nodes/VideoPlatform/shared/nodeTypes';

const root = path.join(__dirname, '../../../..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

// The builder hints name the nodes by these types; a wrong one would point the AI builder nowhere.
it.each([
	[ACTION_NODE_TYPE, new VideoPlatform().description.name, 'nodes/VideoPlatform/VideoPlatform.node.json'],
	[TRIGGER_NODE_TYPE, new VideoPlatformTrigger().description.name, 'nodes/VideoPlatform/VideoPlatformTrigger.node.json'],
])('%s is the package name and the node name, as in the codex file', (type, name, codexFile) => {
	expect(type).toBe(`${readJson('package.json').name}.${name}`);
	expect(readJson(codexFile).node).toBe(type);
});
