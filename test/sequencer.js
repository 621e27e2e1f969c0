// Fast tests first (unit, workflows, package), then the `npm start` end-to-end test before any
// other real-n8n test: on a fresh machine (and in CI, whose n8n cache starts empty) it is the one
// that meets the cold install, the way a new user's first `npm start` does. Load runs come last.
const Sequencer = require('@jest/test-sequencer').default;

const rank = ({ path }) => {
	if (path.includes('/test/load/')) return 3;
	if (!path.includes('/e2e/')) return 0;
	return path.endsWith('start.e2e.test.ts') ? 1 : 2;
};

class StartFirstSequencer extends Sequencer {
	sort(tests) {
		return [...tests].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
	}
}

module.exports = StartFirstSequencer;
