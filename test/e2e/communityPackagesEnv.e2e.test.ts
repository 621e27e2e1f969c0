// N8N_COMMUNITY_PACKAGES with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true, the way an admin installs
// the package for Docker: `n8n start` installs (and on a version bump updates) what the variable
// lists, from the npm registry, and the editor's install calls answer 400. With
// N8N_UNVERIFIED_PACKAGES_ENABLED=false, a package pinned with its checksum (npm's dist.integrity)
// installs, and one without makes n8n refuse to start. Only n8n versions that have this mechanism
// (tools/install/versions.js, packagesManagedByEnv); the docs say what to do on the others.
//
// Real: n8n, its installer and npm, the packed package, TLS, the sandbox. Stood in:
// registry.npmjs.org (test/helpers/npmRegistryStandIn.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { scratchRoot } from '../../tools/common/paths';
import { versionSpec } from '../../tools/install/versions';
import { ensureOwner, rest } from '../../tools/n8n/api';
import { N8n as N8nClass } from '../../tools/n8n/n8n';
import { credential } from '../../tools/n8n/workflows';
import type { NpmRegistryStandIn } from '../helpers/npmRegistryStandIn';
import { NODE_TYPES, PACKAGE, createRoomThroughWebhook, installedPackages, roomByWebhook, roomWebhookUrl, startStandInWithTwoReleases } from '../helpers/npmRegistryStandIn';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import type { N8n } from './n8nWithPackage';
import { eachVersion, FULL_VERSIONS } from './n8nWithPackage';
import { packedTarball } from './packedTarball';

const LIFETIME_MS = 15 * 60_000;
const saved = roomByWebhook('wfPackagesFromEnv', 'vpFromEnv');
const versions = FULL_VERSIONS.filter((version) => versionSpec(version).capabilities.packagesManagedByEnv);

eachVersion(versions)('N8N_COMMUNITY_PACKAGES on a real n8n %s', (version) => {
	const folder = path.join(scratchRoot, `e2e-packages-from-env-${version}-${process.pid}`);
	let npm: NpmRegistryStandIn;
	let sandbox: Sandbox;
	let n8n: N8n;

	/** The variables an admin sets, listing the package at `packageVersion`, pinned with its checksum or not. */
	const adminEnv = async (packageVersion: string, { pinned }: { pinned: boolean }) => {
		// The checksum as the docs tell the admin to get it.
		const view = spawnSync('npm', ['view', `${PACKAGE}@${packageVersion}`, 'dist.integrity', `--registry=${npm.registry.url}/`], { encoding: 'utf8' });
		const integrity = view.stdout.trim();
		expect(integrity).toBe((await npm.registry.metadata(PACKAGE)).versions[packageVersion].dist.integrity);
		const listed = { name: PACKAGE, version: packageVersion, ...(pinned ? { checksum: integrity } : {}) };
		return {
			...npm.env,
			N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
			N8N_COMMUNITY_PACKAGES: JSON.stringify([listed]),
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
		};
	};
	const installed = () => installedPackages(n8n.baseUrl);

	beforeAll(async () => {
		npm = await startStandInWithTwoReleases(`${folder}-npm`, LIFETIME_MS, await packedTarball());
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, maxLifetimeMs: LIFETIME_MS });
		n8n = await new N8nClass({ version, userFolder: folder, migratedDatabase: true, editor: false }).prepare();
		await n8n.importCredentials([credential('vpFromEnv', sandbox.url, SANDBOX_KEY)]);
		await n8n.importWorkflow(saved);
	}, LIFETIME_MS);

	afterAll(async () => {
		await n8n?.dispose();
		await sandbox?.stop();
		await npm?.stop();
	});

	it('pinned with its checksum: n8n installs it at start, runs Room → Create, and refuses installs from the editor', async () => {
		await n8n.start({ env: await adminEnv('0.1.0', { pinned: true }) });
		try {
			expect(await installed()).toEqual([{ name: PACKAGE, version: '0.1.0', nodes: NODE_TYPES }]);
			await (await n8n.publicApi()).post(`/workflows/${saved.id}/activate`);
			await n8n.waitForWebhook(roomWebhookUrl(n8n.baseUrl));
			const answer = await createRoomThroughWebhook(n8n.baseUrl, 'Installed from the variable');
			expect(answer.status).toBe(200);
			expect(JSON.parse(answer.body)).toMatchObject({ name: 'Installed from the variable' });
			const cookie = await ensureOwner(n8n.baseUrl);
			await expect(rest(n8n.baseUrl, '/rest/community-packages', { method: 'POST', body: { name: PACKAGE }, cookie })).rejects.toThrow(
				/answered 400: .*managed via environment variables/,
			);
		} finally {
			await n8n.stop();
		}
	});

	it('a version bump in the variable updates it at the next start; the saved workflow and credential still run', async () => {
		await n8n.start({ env: await adminEnv('0.1.1', { pinned: true }) });
		try {
			expect(await installed()).toEqual([{ name: PACKAGE, version: '0.1.1', nodes: NODE_TYPES }]);
			const answer = await createRoomThroughWebhook(n8n.baseUrl, 'After the bump');
			expect(answer.status).toBe(200);
			expect(sandbox.state.rooms.map((room: { name: string }) => room.name)).toEqual(['Installed from the variable', 'After the bump']);
		} finally {
			await n8n.stop();
		}
	});

	it('without a checksum, while unverified packages are off, n8n refuses to start and says why', async () => {
		await expect(n8n.start({ env: await adminEnv('0.1.0', { pinned: false }) })).rejects.toThrow(/stopped while starting/);
		expect(readFileSync(String(n8n.logFile), 'utf8')).toContain(
			`N8N_COMMUNITY_PACKAGES: no checksum available for '${PACKAGE}@0.1.0' and unverified packages are disabled`,
		);
	});
});
