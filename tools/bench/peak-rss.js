'use strict';
// Loaded with --require into a measured process: writes its peak resident memory on exit.
const fs = require('node:fs');

const target = process.env.BENCH_PEAK_RSS_FILE;
if (target) {
	process.on('exit', () => {
		fs.writeFileSync(target, String(process.resourceUsage().maxRSS * 1024));
	});
}
