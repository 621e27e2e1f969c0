import * as path from 'node:path';

import { packPackage } from '../../tools/common/package';
import { scratchRoot } from '../../tools/common/paths';

let tarball: Promise<string> | undefined;

/** Packs the built package once per test process, as `npm publish` would ship it. */
export function packedTarball(): Promise<string> {
	tarball ??= Promise.resolve(packPackage(path.join(scratchRoot, `pack-${process.pid}`)));
	return tarball;
}
