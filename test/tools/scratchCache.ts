import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The installer fixes its cache folder (and log) when it loads: import this module before it.
export const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'vp-install-test-'));
process.env.VIDEOPLATFORM_CACHE_DIR = cache;
