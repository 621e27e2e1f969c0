/**
 * The nodes' full type names, as n8n and its AI builder name them: the package's name, a dot, the
 * node's name. The codex files (*.node.json) spell them too.
 */
const PACKAGE_NAME = 'n8n-nodes-videoplatform';

const ACTION_NODE_NAME = 'videoPlatform';
const TRIGGER_NODE_NAME = 'videoPlatformTrigger';

export const ACTION_NODE_TYPE = `${PACKAGE_NAME}.${ACTION_NODE_NAME}`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.${TRIGGER_NODE_NAME}`;
