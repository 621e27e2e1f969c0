import * as path from 'node:path';

import { N8n as N8nClass } from '../../tools/n8n/n8n';
import { installableVersions } from '../../tools/install/versions';
import { scratchRoot } from '../../tools/common/paths';
import { packedTarball } from './packedTarball';

export type N8n = InstanceType<typeof N8nClass>;

/** The versions every end-to-end suite runs on, and those that get the smoke test (tools/install/versions.js). */
export const FULL_VERSIONS: string[] = installableVersions({ role: 'full' });
export const SMOKE_VERSIONS: string[] = installableVersions({ role: 'smoke' });

/** describe.each over versions; over none, one skipped block, since jest fails an empty table. */
export const eachVersion = (versions: string[]) => (versions.length ? describe.each(versions) : describe.skip.each(['(none)']));

/**
 * A real n8n of the given version in a scratch user folder of its own (named after the test
 * file), with the packed package installed the way users install it; installed into the cache
 * on first use. Its database starts migrated (tools/n8n/migratedDatabase.js); its imports go
 * through its API once started (N8n's importThroughApi: on 1.x, ask n8n.idOf(id) for the id n8n
 * gave). It serves no editor (N8N_DISABLE_UI): these files never open it, and each start then
 * costs about a third less CPU. Dispose of it in afterAll.
 */
export async function n8nWithPackage(version: string, name: string): Promise<N8n> {
	const userFolder = path.join(scratchRoot, `e2e-${name}-${version}-${process.pid}`);
	const n8n = await new N8nClass({ version, userFolder, migratedDatabase: true, importThroughApi: true, editor: false }).prepare();
	n8n.installPackage(await packedTarball());
	return n8n;
}
