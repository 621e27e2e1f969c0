import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8nInstance } from '../../../tools/n8n/n8n';
import { defaultVersion, installableVersions, versionSpec } from '../../../tools/install/versions';

// Nothing is installed: prepare() gets an install that is already there.
jest.mock('../../../tools/install/n8n', () => ({
	ensureN8n: jest.fn(async () => undefined),
	nodeFor: jest.fn(async () => process.execPath),
}));

type Instance = InstanceType<typeof N8nInstance> & { cli: jest.Mock };
const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'vp-instance-test-'));
afterAll(() => fs.rmSync(userFolder, { recursive: true, force: true }));

/** An instance of some installable version whose capabilities are the given ones, and whose CLI is recorded. */
function instance(capabilities: Record<string, unknown>, version = defaultVersion()): Instance {
	const n8n = new N8nInstance({ version, userFolder }) as Instance;
	n8n.capabilities = { ...n8n.capabilities, ...capabilities };
	n8n.cli = jest.fn(async () => ({ status: 0, stdout: '', stderr: '' }));
	return n8n;
}

describe('N8nInstance reads capabilities, not majors', () => {
	it('takes its capabilities from the version list, and the default version when given none', () => {
		for (const version of installableVersions()) {
			expect(new N8nInstance({ version, userFolder }).capabilities).toBe(versionSpec(version).capabilities);
		}
		expect(new N8nInstance({ userFolder }).version).toBe(defaultVersion());
		expect(() => new N8nInstance({ version: '0.1.0', userFolder })).toThrow('n8n "0.1.0" is not in tools/install/versions.js');
	});

	it('activates a workflow with the command the version has', async () => {
		const publish = instance({ activateCommand: 'publish:workflow' });
		await publish.activateWorkflow('wf1');
		expect(publish.cli).toHaveBeenCalledWith(['publish:workflow', '--id=wf1']);

		const update = instance({ activateCommand: 'update:workflow' });
		await update.activateWorkflow('wf1');
		expect(update.cli).toHaveBeenCalledWith(['update:workflow', '--id=wf1', '--active=true']);

		await expect(instance({ activateCommand: 'activate' }).activateWorkflow('wf1')).rejects.toThrow('unknown activateCommand "activate"');
	});

	it('knows how to activate on every installable version', async () => {
		for (const version of installableVersions()) {
			const n8n = instance({}, version);
			await n8n.activateWorkflow('wf1');
			expect(n8n.cli).toHaveBeenCalledTimes(1);
		}
	});

	it('disables modules only where the version has them', () => {
		expect(instance({ modulesToDisable: ['mcp-registry', 'other'] }).env().N8N_DISABLED_MODULES).toBe('mcp-registry,other');
		expect(instance({ modulesToDisable: [] }).env()).not.toHaveProperty('N8N_DISABLED_MODULES');
	});

	it('gives a task broker its own port, and sets none where there is no broker', async () => {
		const withBroker = await instance({ taskBroker: true }).prepare();
		const env = withBroker.env();
		expect(Number(env.N8N_RUNNERS_BROKER_PORT)).toBeGreaterThan(0);
		expect(env.N8N_RUNNERS_BROKER_PORT).not.toBe(env.N8N_PORT);

		const withoutBroker = await instance({ taskBroker: false }).prepare();
		expect(withoutBroker.env()).not.toHaveProperty('N8N_RUNNERS_BROKER_PORT');
	});
});
