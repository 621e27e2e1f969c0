import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8's own collector, so that the heap shows only what is still held.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A collection that frees less than this has found all there was to free. */
const SETTLED_BYTES = 1024 * 1024;

/**
 * The heap still held, once collected. After other test files in the same process (as in a
 * mutation run), one collection can leave some 100 MB that the next frees, enough to hide a leak
 * between two readings; so it collects until a collection frees little, at most ten times.
 */
export function heapHeld(): number {
	let held = Number.POSITIVE_INFINITY;
	for (let collection = 0; collection < 10; collection++) {
		collectGarbage();
		const now = process.memoryUsage().heapUsed;
		if (held - now < SETTLED_BYTES) return now;
		held = now;
	}
	return held;
}
