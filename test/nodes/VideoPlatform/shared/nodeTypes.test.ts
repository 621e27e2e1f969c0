import { VideoPlatform } from '../../../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../../../nodes/VideoPlatform/VideoPlatformTrigger.node';
import { ACTION_NODE_TYPE, TRIGGER_NODE_TYPE } from '../../../../nodes/VideoPlatform/shared/nodeTypes';
import packageJson from '../../../../package.json';
import actionCodex from '../../../../nodes/VideoPlatform/VideoPlatform.node.json';
import triggerCodex from '../../../../nodes/VideoPlatform/VideoPlatformTrigger.node.json';

// The builder hints name the nodes by these types; a wrong one would point the AI builder nowhere.
it.each([
	[ACTION_NODE_TYPE, new VideoPlatform().description.name, actionCodex.node],
	[TRIGGER_NODE_TYPE, new VideoPlatformTrigger().description.name, triggerCodex.node],
])('%s is the package name and the node name, as in the codex file', (type, name, codexNode) => {
	expect(type).toBe(`${packageJson.name}.${name}`);
	expect(codexNode).toBe(type);
});
