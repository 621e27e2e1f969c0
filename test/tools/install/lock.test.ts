import * as fs from 'node:fs';

import { lockFileOf } from '../../../tools/install/n8n';
import { installableVersions, versionSpec } from '../../../tools/install/versions';

type Lock = { packages: Record<string, { version?: string; resolved?: string; integrity?: string; link?: boolean }> };
const lockOf = (version: string): Lock => JSON.parse(fs.readFileSync(lockFileOf(version), 'utf8'));

// The installs use these lockfiles with `npm ci` (tools/install/n8n.js); tools/install/lock.js writes them.
describe('the n8n lockfiles', () => {
	it.each(installableVersions())('n8n %s: installs that version, with its overrides applied', (version) => {
		const { packages } = lockOf(version);
		expect(packages['']).toMatchObject({ dependencies: { n8n: version } });
		expect(packages['node_modules/n8n'].version).toBe(version);
		// An override changed without a new lockfile would install what the lockfile says, not the override.
		for (const [name, wanted] of Object.entries(versionSpec(version).overrides ?? {})) {
			const copies = Object.entries(packages).filter(([where]) => where === `node_modules/${name}` || where.endsWith(`/node_modules/${name}`));
			expect(copies.length).toBeGreaterThan(0);
			expect(copies.map(([, entry]) => entry.version)).toEqual(copies.map(() => wanted));
		}
	});

	it.each(installableVersions())('n8n %s: every package comes from the npm registry, with its checksum', (version) => {
		const fetched = Object.entries(lockOf(version).packages).filter(([where, entry]) => where !== '' && !entry.link);
		expect(fetched.length).toBeGreaterThan(100);
		expect(fetched.filter(([, entry]) => !entry.resolved?.startsWith('https://registry.npmjs.org/') || !entry.integrity?.startsWith('sha512-')).map(([where]) => where)).toEqual([]);
	});
});
