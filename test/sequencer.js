// Fast tests first (unit, workflows, package), then the `npm start` end-to-end test before any
// other real-n8n test: on a fresh machine (and in CI, whose n8n cache starts empty) it is the one
// that meets the cold install, the way a new user's first `npm start` does. Load runs come last.
//
// `npm test` runs jest as two lanes side by side, one per core (`--shard=1/2` and `--shard=2/2`,
// tools/checks/jestLanes.js). Lane 1 holds the end-to-end files that load the machine or time what
// they prove (those that call oneHeavyFileAtATime(), so that no two of them ever run at once) and
// the light ones named below, which even the two lanes' times; lane 2 holds everything else.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Light end-to-end files run in lane 1, which starts later, so that both lanes end near the same time. */
const EVENING_THE_LANES = ['examples.e2e.test.ts'];

const rank = ({ path }) => {
	if (path.includes('/test/load/')) return 3;
	if (!path.includes('/e2e/')) return 0;
	return path.endsWith('start.e2e.test.ts') ? 1 : 2;
};

const isHeavy = (file) => /\boneHeavyFileAtATime\(\)/.test(fs.readFileSync(file, 'utf8'));
const laneOf = ({ path: file }) => (rank({ path: file }) === 2 && (isHeavy(file) || EVENING_THE_LANES.includes(path.basename(file))) ? 1 : 2);

class StartFirstSequencer extends Sequencer {
	sort(tests) {
		return [...tests].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
	}

	shard(tests, options) {
		if (options.shardCount !== 2) return super.shard(tests, options);
		return tests.filter((test) => laneOf(test) === options.shardIndex);
	}
}

module.exports = StartFirstSequencer;
