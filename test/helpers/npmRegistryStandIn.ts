import { rmSync } from 'node:fs';
import * as path from 'node:path';

import type { HttpsStandIn, TestCa } from '../../tools/standin/https';
import { forwardTo, makeTestCa, proxyEnv, startHttpsStandIn } from '../../tools/standin/https';
import type { Registry } from '../../tools/standin/registry';
import { startRegistry } from '../../tools/standin/registry';
import { ensureOwner, rest } from '../../tools/n8n/api';
import { createRoom, node, workflow } from '../../tools/n8n/workflows';

/**
 * registry.npmjs.org as n8n's installer meets it: verdaccio (tools/standin/registry.js) holding
 * only what a test publishes, behind the CONNECT proxy of tools/standin/https.js, which refuses
 * every other host at once. n8n installs from that default address only (another needs an
 * enterprise licence), with npm and with its own HTTPS client; both go through HTTPS_PROXY.
 */
export const NPM_REGISTRY = 'registry.npmjs.org';
export const PACKAGE = 'n8n-nodes-videoplatform';
export const NODE_TYPES = [`${PACKAGE}.videoPlatform`, `${PACKAGE}.videoPlatformTrigger`];

export interface NpmRegistryStandIn {
	registry: Registry;
	proxy: HttpsStandIn;
	/** For n8n's start: the proxy, the CA, and an npm cache of its own. */
	env: Record<string, string>;
	/** verdaccio's log and the proxy's (each CONNECT, each request and its status), by a name to keep them under. */
	logFiles(): Record<string, string>;
	/** Stops both and removes `folder`. */
	stop(): Promise<void>;
}

export async function startNpmRegistryStandIn(folder: string, maxLifetimeMs: number): Promise<NpmRegistryStandIn> {
	const ca: TestCa = makeTestCa([NPM_REGISTRY]);
	const registry = await startRegistry({ dir: path.join(folder, 'registry'), publicUrl: `https://${NPM_REGISTRY}/` });
	const proxyLog = path.join(folder, 'proxy.log');
	const proxy = await startHttpsStandIn({ hosts: [NPM_REGISTRY], ca, onRequest: forwardTo(registry.url), maxLifetimeMs, logFile: proxyLog });
	return {
		registry,
		proxy,
		env: { ...proxyEnv(proxy, ca), npm_config_cache: path.join(folder, 'npm-cache') },
		logFiles: () => ({ 'registry-verdaccio.log': registry.logFile, 'registry-proxy.log': proxyLog }),
		async stop() {
			await proxy.stop();
			await registry.stop();
			ca.cleanup();
			rmSync(folder, { recursive: true, force: true });
		},
	};
}

/** The stand-in with the packed package published as it is (0.1.0) and as a newer release, 0.1.1. */
export async function startStandInWithTwoReleases(folder: string, maxLifetimeMs: number, tarball: string): Promise<NpmRegistryStandIn> {
	const npm = await startNpmRegistryStandIn(folder, maxLifetimeMs);
	npm.registry.publish(tarball);
	npm.registry.publish(tarball, { version: '0.1.1' });
	return npm;
}

const WEBHOOK_PATH = 'room-by-webhook';

/**
 * A workflow a user saved: a webhook that creates the room named in its body and answers with it.
 * `answer`: 'lastNode', the Webhook node answers when the run has ended; 'respondNode', a Respond to
 * Webhook node answers as it runs, which in queue mode the worker sends over the job's progress
 * messages, so the answer does not wait on n8n hearing the job's end.
 */
export function roomByWebhook(id: string, credentialId: string, answer: 'lastNode' | 'respondNode' = 'lastNode') {
	const create = createRoom('Create room', credentialId);
	create.parameters.name = '={{ $json.body.name }}';
	const webhook = node('Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: answer === 'lastNode' ? 'lastNode' : 'responseNode', options: {} }, {
		typeVersion: 2,
		webhookId: '6c1f0a52-3b7e-4d19-9a86-0e5d2c7b4f31',
	});
	if (answer === 'lastNode') return workflow(id, [webhook, create]);
	return workflow(id, [webhook, create, node('Respond', 'n8n-nodes-base.respondToWebhook', { respondWith: 'firstIncomingItem', options: {} }, { typeVersion: 1.1 })]);
}

/** That workflow's production webhook (n8n registers it a moment after activation: wait for it). */
export const roomWebhookUrl = (baseUrl: string) => `${baseUrl}/webhook/${WEBHOOK_PATH}`;

/** Calls that workflow's production webhook; its answer's status and text. */
export async function createRoomThroughWebhook(baseUrl: string, name: string) {
	const response = await fetch(roomWebhookUrl(baseUrl), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ name }),
		// n8n answers when the execution ends; a run that never ends fails here, saying so.
		signal: AbortSignal.timeout(120_000),
	});
	return { status: response.status, body: await response.text() };
}

/** The community packages n8n lists in Settings → Community Nodes: name, version, node types. */
export async function installedPackages(baseUrl: string) {
	const { data } = await rest(baseUrl, '/rest/community-packages', { cookie: await ensureOwner(baseUrl) });
	return (data.data as Array<{ packageName: string; installedVersion: string; installedNodes: Array<{ type: string }> }>).map((p) => ({
		name: p.packageName,
		version: p.installedVersion,
		nodes: p.installedNodes.map((n) => n.type).sort(),
	}));
}
