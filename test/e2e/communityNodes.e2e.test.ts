// Settings → Community Nodes, through the REST calls the editor makes (install, list, update,
// uninstall), in a real n8n that believes it talks to the npm registry. n8n installs from its
// default address, https://registry.npmjs.org (another needs an enterprise licence), with npm and
// with its own HTTPS client; both go through HTTPS_PROXY.
//
// Real: n8n, its installer and the npm it runs, the packed package, TLS checked against a CA
// trusted through NODE_EXTRA_CA_CERTS, the sandbox. Stood in: registry.npmjs.org, by verdaccio
// (tools/standin/registry.js) holding only this package, behind the CONNECT proxy of
// tools/standin/https.js, which refuses every other host at once; the test's CA.
import * as path from 'node:path';

import { scratchRoot } from '../../tools/common/paths';
import { ensureOwner, rest } from '../../tools/n8n/api';
import { N8n as N8nClass } from '../../tools/n8n/n8n';
import { credential } from '../../tools/n8n/workflows';
import type { NpmRegistryStandIn } from '../helpers/npmRegistryStandIn';
import { NODE_TYPES, NPM_REGISTRY, PACKAGE, createRoomThroughWebhook, roomByWebhook, roomWebhookUrl, startNpmRegistryStandIn } from '../helpers/npmRegistryStandIn';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import type { N8n } from './n8nWithPackage';
import { FULL_VERSIONS } from './n8nWithPackage';
import { packedTarball } from './packedTarball';

const LIFETIME_MS = 15 * 60_000;
const saved = roomByWebhook('wfCommunityNodes', 'vpCommunity');

describe.each(FULL_VERSIONS)('Settings → Community Nodes in a real n8n %s', (version) => {
	const folder = path.join(scratchRoot, `e2e-community-nodes-${version}-${process.pid}`);
	let npm: NpmRegistryStandIn;
	let sandbox: Sandbox;
	let n8n: N8n;
	let cookie: string;
	let tarball: string;

	const call = async (method: string, route = '', body?: unknown) =>
		(await rest(n8n.baseUrl, `/rest/community-packages${route}`, { method, body, cookie })).data?.data;
	const roomThroughWebhook = (name: string) => createRoomThroughWebhook(n8n.baseUrl, name);
	// n8n 1.x rewrites this file after an install or uninstall: a read during the write is cut
	// short (seen once: JSON ending at 8 MB), so an unfinished file is read again, for up to 10 s.
	const nodeTypesInEditor = async () => {
		for (let attempt = 1; ; attempt++) {
			const response = await fetch(`${n8n.baseUrl}/types/nodes.json`, { headers: { Cookie: cookie } });
			const text = await response.text();
			try {
				const types = JSON.parse(text) as Array<{ name: string }>;
				return types.map((type) => type.name).filter((name) => name.startsWith(`${PACKAGE}.`));
			} catch (error) {
				if (attempt >= 20) throw error;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}
	};

	beforeAll(async () => {
		tarball = await packedTarball();
		npm = await startNpmRegistryStandIn(`${folder}-npm`, LIFETIME_MS);
		npm.registry.publish(tarball);
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, maxLifetimeMs: LIFETIME_MS });
		n8n = await new N8nClass({ version, userFolder: folder, migratedDatabase: true }).prepare();
		await n8n.importCredentials([credential('vpCommunity', sandbox.url, SANDBOX_KEY)]);
		await n8n.importWorkflow(saved);
		await n8n.start({ env: npm.env });
		cookie = await ensureOwner(n8n.baseUrl);
	}, LIFETIME_MS);

	afterAll(async () => {
		await n8n?.dispose();
		await sandbox?.stop();
		await npm?.stop();
	});

	it('Install: n8n fetches it from the registry, lists it with both nodes, and the editor offers them', async () => {
		const installed = await call('POST', '', { name: PACKAGE });
		expect(installed).toMatchObject({ packageName: PACKAGE, installedVersion: '0.1.0' });
		expect(installed.installedNodes.map((n: { type: string }) => n.type).sort()).toEqual(NODE_TYPES);
		expect(await call('GET')).toEqual([expect.objectContaining({ packageName: PACKAGE, installedVersion: '0.1.0' })]);
		expect((await nodeTypesInEditor()).sort()).toEqual(expect.arrayContaining(NODE_TYPES));
		// npm and n8n reached the registry through the proxy, and nothing else got through.
		expect(npm.proxy.connects).toContain(`${NPM_REGISTRY}:443`);
	});

	it('Room → Create runs in a saved, published workflow', async () => {
		const api = await n8n.publicApi();
		await api.post(`/workflows/${saved.id}/activate`);
		await n8n.waitForWebhook(roomWebhookUrl(n8n.baseUrl));
		const answer = await roomThroughWebhook('Installed from the editor');
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.body)).toMatchObject({ name: 'Installed from the editor', type: 'conference' });
		expect(sandbox.state.rooms.map((room: { name: string }) => room.name)).toEqual(['Installed from the editor']);
	});

	it('Update to a newer version published to the registry: the saved workflow and credential still run', async () => {
		npm.registry.publish(tarball, { version: '0.1.1' });
		const updated = await call('PATCH', '', { name: PACKAGE, version: '0.1.1' });
		expect(updated).toMatchObject({ packageName: PACKAGE, installedVersion: '0.1.1' });
		expect(await call('GET')).toEqual([expect.objectContaining({ packageName: PACKAGE, installedVersion: '0.1.1' })]);
		const answer = await roomThroughWebhook('After the update');
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.body)).toMatchObject({ name: 'After the update' });
		expect(sandbox.state.rooms.map((room: { name: string }) => room.name)).toEqual(['Installed from the editor', 'After the update']);
	});

	it('Uninstall: the package and its nodes are gone from n8n; the saved workflow stays', async () => {
		await call('DELETE', `?name=${PACKAGE}`);
		expect(await call('GET')).toEqual([]);
		expect(await nodeTypesInEditor()).toEqual([]);
		// The published workflow stays saved and published; its webhook now answers with an error
		// that names the missing node (2.x: 400, 1.x: 500), and nothing reaches the platform.
		const answer = await roomThroughWebhook('After uninstall');
		expect(answer.status).toBeGreaterThanOrEqual(400);
		expect(JSON.parse(answer.body).message).toBe(`Unrecognized node type: ${PACKAGE}.videoPlatform`);
		expect(sandbox.state.rooms).toHaveLength(2);
		const kept = await (await n8n.publicApi()).get(`/workflows/${saved.id}`);
		expect({ active: kept.active, types: kept.nodes.map((n: { type: string }) => n.type) }).toEqual({
			active: true,
			types: expect.arrayContaining([`${PACKAGE}.videoPlatform`]),
		});
	});
});
