import * as path from 'node:path';

import { packPackage, PACKED_TARBALL_ENV } from '../../tools/common/package';
import { scratchRoot } from '../../tools/common/paths';

let tarball: Promise<string> | undefined;

/**
 * The built package packed as `npm publish` would ship it: the tarball `npm test` packed once for
 * every file, right after its build (tools/checks/test.js); run without it, packed once per file.
 */
export function packedTarball(): Promise<string> {
	tarball ??= Promise.resolve(process.env[PACKED_TARBALL_ENV] || packPackage(path.join(scratchRoot, `pack-${process.pid}`)));
	return tarball;
}
