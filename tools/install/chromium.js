#!/usr/bin/env node
'use strict';
// Debian's Chromium for the real-browser test (chromium.sh), installed by `npm test` in the
// background while the fast tests run, and timed as one of its install phases. Without root, its
// sudo does not ask for a password mid-run (sudo -n): it fails, said in its log, and the browser
// test's own call installs Chromium then.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { recordPhase } = require('../checks/phases');

const CHROMIUM = '/usr/bin/chromium';
const missing = !fs.existsSync(CHROMIUM);
const started = performance.now();
const { status } = spawnSync('bash', [path.join(__dirname, 'chromium.sh'), '--no-prompt'], { stdio: 'inherit' });
if (status === 0 && missing && process.env.VIDEOPLATFORM_RECORD_PHASES === '1') recordPhase('install Chromium', (performance.now() - started) / 1000);
process.exit(status ?? 1);
