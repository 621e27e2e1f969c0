import * as path from 'node:path';

import { scratchRoot } from '../../tools/common/paths';
import { withLock } from '../../tools/install/steps';

// `npm test` runs two end-to-end files at once (tools/checks/jestLanes.js), one per core. A file
// that loads the machine (a queue-mode stack of five n8n processes, a browser, a burst of
// deliveries) or that times what it proves (Stop within two seconds) runs beside a light file, never
// beside another such file: each calls this at the top of the file, outside its describe blocks, so
// that it holds the turn from before its own set-up until after its own tear-down.
const LOCK = path.join(scratchRoot, 'e2e-heavy-file.lock');
/**
 * Longest wait for the turn: every other heavy file before this one, as on a machine whose jest runs
 * many files at once (withLock takes over a lock whose holder died; a file that gives up waiting
 * would still run its tests, beside the holder).
 */
const WAIT_MS = 120 * 60_000;

export function oneHeavyFileAtATime(): void {
	let release = () => {};
	let granted = false;
	let gaveUp = false;
	let held: Promise<unknown> = Promise.resolve();
	beforeAll(async () => {
		await new Promise<void>((gotTheTurn, failed) => {
			// A turn that comes after this file gave up waiting is handed on at once.
			const turn = () => (gaveUp ? Promise.resolve() : new Promise<void>((done) => ((release = done), (granted = true), gotTheTurn())));
			held = withLock(LOCK, turn, 'heavy end-to-end file').catch(failed);
		});
	}, WAIT_MS);
	afterAll(async () => {
		if (!granted) {
			gaveUp = true;
			return;
		}
		release();
		await held;
	});
}
