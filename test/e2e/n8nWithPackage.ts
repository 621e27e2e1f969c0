import * as path from 'node:path';

import { N8nInstance } from '../../tools/lib/n8n-instance';
import { scratchRoot } from '../../tools/lib/paths';
import { packedTarball } from './packedTarball';

export type N8n = InstanceType<typeof N8nInstance>;

/**
 * A real n8n of the given major in a scratch user folder of its own (named after the test
 * file), with the packed package installed the way users install it. Dispose of it in afterAll.
 */
export async function n8nWithPackage(major: 1 | 2, name: string): Promise<N8n> {
	const userFolder = path.join(scratchRoot, `e2e-${name}-${major}-${process.pid}`);
	const n8n = await new N8nInstance({ major, userFolder }).prepare();
	n8n.installPackage(await packedTarball());
	return n8n;
}
