import * as path from 'node:path';

import { packPackage, recordTested, PACKED_TARBALL_ENV } from '../../tools/common/package';
import { scratchRoot } from '../../tools/common/paths';

let tarball: Promise<string> | undefined;

/** The tarball `npm test` packed right after its build, listed again as tested: a later build empties the list. */
function packedByNpmTest(packed: string): string {
	recordTested(packed);
	return packed;
}

/**
 * The built package packed as `npm publish` would ship it: the tarball `npm test` packed once for
 * every file, right after its build (tools/checks/test.js); run without it, packed once per file.
 */
export function packedTarball(): Promise<string> {
	const packed = process.env[PACKED_TARBALL_ENV];
	tarball ??= Promise.resolve(packed ? packedByNpmTest(packed) : packPackage(path.join(scratchRoot, `pack-${process.pid}`)));
	return tarball;
}
