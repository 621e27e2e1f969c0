/** Workflow and credential fixtures for the real-n8n tests. */
export const PACKAGE = 'n8n-nodes-videoplatform';
export const VIDEO_PLATFORM = `${PACKAGE}.videoPlatform`;

type Node = Record<string, unknown> & { name: string };

export function node(name: string, type: string, parameters: object, extra: object = {}): Node {
	return { id: name.replace(/\W/g, '-'), name, type, typeVersion: 1, position: [0, 0], parameters, ...extra };
}

export const credentialRef = (id: string) => ({ videoPlatformApi: { id, name: id } });

export function credential(id: string, baseUrl: string, apiKey: string) {
	return { id, name: id, type: 'videoPlatformApi', data: { baseUrl, apiKey } };
}

/** Chains nodes left to right from the first, which is the trigger. */
export function workflow(id: string, ...chains: Node[][]) {
	const nodes = new Map<string, Node>();
	const connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }> = {};
	for (const chain of chains) {
		chain.forEach((current, index) => {
			nodes.set(current.name, current);
			const next = chain[index + 1];
			if (!next) return;
			connections[current.name] ??= { main: [[]] };
			connections[current.name].main[0].push({ node: next.name, type: 'main', index: 0 });
		});
	}
	return { id, name: id, active: false, settings: {}, nodes: [...nodes.values()], connections };
}

export const manualTrigger = () => node('Start', 'n8n-nodes-base.manualTrigger', {});

/** Items from a literal list, through nodes that exist in n8n 1.x and 2.x alike. */
export function itemsFrom(prefix: string, rows: object[]): Node[] {
	return [
		node(`${prefix} list`, 'n8n-nodes-base.set', { mode: 'raw', jsonOutput: JSON.stringify({ rows }) }, { typeVersion: 3.4 }),
		node(`${prefix} items`, 'n8n-nodes-base.splitOut', { fieldToSplitOut: 'rows' }),
	];
}

export function createRoom(name: string, credentialId: string, extra: object = {}): Node {
	return node(
		name,
		VIDEO_PLATFORM,
		{ resource: 'room', operation: 'create', name: '={{ $json.name }}', type: '={{ $json.type ?? "conference" }}' },
		{ credentials: credentialRef(credentialId), ...extra },
	);
}

type RunItem = { json: Record<string, unknown>; pairedItem?: unknown };
type RunData = { data: { resultData: { runData: Record<string, Array<{ data?: { main: RunItem[][] } }>> } } };

/** The items a node put out in a run, as n8n recorded them. */
export function outputOf(run: unknown, nodeName: string): RunItem[] {
	const runs = (run as RunData).data.resultData.runData[nodeName];
	if (!runs) throw new Error(`Node "${nodeName}" did not run`);
	return runs[0].data?.main[0] ?? [];
}
