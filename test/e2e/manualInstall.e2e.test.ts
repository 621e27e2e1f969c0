// The manual install of docs/self-hosting.md, run exactly as written there, on the Node each n8n version
// runs on (Node 20 for 1.x, Node 24 for 2.x): in an empty home (so an empty npm cache and no
// npmrc), from the packed package published to a local registry that holds nothing else (so a
// peer npm tried to fetch would fail the install). The home lies inside this repository, so a
// command that let npm pick the nearest folder with a package.json would install into the repo,
// not into ~/.n8n/nodes. Then that n8n, with this home as its user folder, runs the installed node.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { repoRoot, scratchRoot } from '../../tools/common/paths';
import { nodeFor } from '../../tools/install/n8n';
import { versionSpec } from '../../tools/install/versions';
import { N8n as N8nClass } from '../../tools/n8n/n8n';
import { startRegistry } from '../../tools/standin/registry';
import { createRoom, credential, itemsFrom, manualTrigger, outputOf, workflow } from '../../tools/n8n/workflows';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import type { N8n } from './n8nWithPackage';
import { FULL_VERSIONS } from './n8nWithPackage';
import { packedTarball } from './packedTarball';

/** The command of docs/self-hosting.md's install section: the line that starts with `npm install` and ends in the package's name. */
function documentedCommand(): string {
	const page = readFileSync(path.join(repoRoot, 'docs', 'self-hosting.md'), 'utf8');
	const section = page.slice(page.indexOf('## Install without the editor'));
	const command = /^(npm install .*n8n-nodes-videoplatform)$/m.exec(section.slice(0, section.indexOf('\n## ', 3)))?.[1];
	if (!command) throw new Error('docs/self-hosting.md\'s "Install without the editor" section has no line `npm install ... n8n-nodes-videoplatform`');
	return command.trim();
}

/** Every folder name under `dir`, at any depth (node_modules trees are small here). */
function foldersUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

const CREATE = 'Create room';
const roomWorkflow = workflow('wfManualInstall', [manualTrigger(), ...itemsFrom('Room', [{ name: 'Manual install room' }]), createRoom(CREATE, 'vpManual')]);

describe.each(FULL_VERSIONS)("the manual install of docs/self-hosting.md, for n8n %s", (version) => {
	const home = path.join(scratchRoot, `e2e-manual-install-${version}-${process.pid}`);
	let registry: Awaited<ReturnType<typeof startRegistry>>;
	let sandbox: Sandbox;
	let n8n: N8n;
	let nodeBin: string;

	/** A shell in the empty home, with this version's Node first on PATH and the local registry. */
	const shell = (command: string) => {
		const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
		Object.assign(env, { HOME: home, PATH: `${path.dirname(nodeBin)}:${env.PATH}`, npm_config_registry: `${registry.url}/` });
		return spawnSync('bash', ['-c', command], { cwd: home, env, encoding: 'utf8', timeout: 5 * 60_000 });
	};

	beforeAll(async () => {
		rmSync(home, { recursive: true, force: true });
		mkdirSync(home, { recursive: true });
		nodeBin = await nodeFor(version);
		registry = await startRegistry({ dir: `${home}-registry` });
		registry.publish(await packedTarball());
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, maxLifetimeMs: 10 * 60_000 });
		n8n = new N8nClass({ version, userFolder: home });
	}, 10 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		await registry?.stop();
		rmSync(`${home}-registry`, { recursive: true, force: true });
		await sandbox?.stop();
	});

	it('exits 0 and installs the package alone: no second n8n-workflow, no isolated-vm', () => {
		expect(shell('node --version').stdout).toMatch(new RegExp(`^v${versionSpec(version).node}\\.`));

		const install = shell(documentedCommand());
		// Its output is shown only when it failed.
		expect({ status: install.status, output: install.status === 0 ? '' : `${install.stdout}\n${install.stderr}`.slice(-3000) }).toEqual({ status: 0, output: '' });

		const modules = path.join(home, '.n8n', 'nodes', 'node_modules');
		expect(readdirSync(modules).filter((name) => !name.startsWith('.'))).toEqual(['n8n-nodes-videoplatform']);
		const folders = foldersUnder(modules);
		expect(folders.filter((folder) => /(^|\/)(n8n-workflow|isolated-vm)$/.test(folder))).toEqual([]);
		expect(JSON.parse(readFileSync(path.join(home, '.n8n', 'nodes', 'package.json'), 'utf8')).dependencies).toEqual({
			'n8n-nodes-videoplatform': expect.any(String),
		});
	});

	it('n8n then runs the installed node: Room → Create sends one request and outputs the room', async () => {
		await n8n.prepare();
		await n8n.importCredentials([credential('vpManual', sandbox.url, SANDBOX_KEY)]);
		await n8n.importWorkflow(roomWorkflow);
		const result = await n8n.execute(roomWorkflow.id);
		expect(result).toHaveRunOk();
		expect(sandbox.state.requests).toEqual([expect.objectContaining({ method: 'POST', path: '/v1/rooms', body: '{"name":"Manual install room","type":"conference"}' })]);
		const [room] = sandbox.state.rooms as Array<{ id: string }>;
		expect(outputOf(result.run, CREATE)).toMatchObject([{ json: { id: room.id, name: 'Manual install room' }, pairedItem: { item: 0 } }]);
	});
});

