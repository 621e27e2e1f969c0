// Fast tests first (unit, workflows, package), then the `npm start` end-to-end test before any
// other real-n8n test: on a fresh machine (and in CI, whose n8n cache starts empty) it is the one
// that meets the cold install, the way a new user's first `npm start` does. Load runs come last.
//
// `npm test` runs jest as three lanes side by side (`--shard=1/3` to `--shard=3/3`,
// tools/checks/jestLanes.js): two keep the two cores busy, the third holds the files that mostly
// wait on a real clock. Lane 1 holds the end-to-end files that load the machine or time what they
// prove (those that call oneHeavyFileAtATime(), so that no two of them ever run at once); lane 3 the
// waiting files named below; lane 2 everything else.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Files whose time goes mostly in waiting for n8n's clock (its minute polls): they run beside the others. */
const WAITING = ['calendarToChat.e2e.test.ts'];

const rank = ({ path }) => {
	if (path.includes('/test/load/')) return 3;
	if (!path.includes('/e2e/')) return 0;
	return path.endsWith('start.e2e.test.ts') ? 1 : 2;
};

const isHeavy = (file) => /\boneHeavyFileAtATime\(\)/.test(fs.readFileSync(file, 'utf8'));
const laneOf = ({ path: file }) => {
	if (rank({ path: file }) !== 2) return 2;
	if (WAITING.includes(path.basename(file))) return 3;
	return isHeavy(file) ? 1 : 2;
};

class StartFirstSequencer extends Sequencer {
	sort(tests) {
		return [...tests].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
	}

	shard(tests, options) {
		if (options.shardCount !== 3) return super.shard(tests, options);
		return tests.filter((test) => laneOf(test) === options.shardIndex);
	}
}

module.exports = StartFirstSequencer;
