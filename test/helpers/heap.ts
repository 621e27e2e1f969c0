import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8's own collector, so that the heap shows only what is still held.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A collection that frees less than this has found all there was to free. */
const SETTLED_BYTES = 1024 * 1024;

/**
 * The heap still held, once collected. After other test files in the same process (as in a
 * mutation run), one collection can leave some 100 MB that the next frees; so it collects until a
 * collection frees little, at most ten times.
 */
function heapHeld(): number {
	let held = Number.POSITIVE_INFINITY;
	for (let collection = 0; collection < 10; collection++) {
		collectGarbage();
		const now = process.memoryUsage().heapUsed;
		if (held - now < SETTLED_BYTES) return now;
		held = now;
	}
	return held;
}

/**
 * The most the heap held grew over one of two rounds of `round`, after one round to warm up. Even
 * collected until settled, the heap can drop once by some 100 MB that earlier test files left
 * (measured in a mutation run), hiding a leak as large in the round it falls in; it does not drop
 * twice, so the other round still shows the leak.
 */
export async function mostHeapGrowth(round: (number: number) => unknown): Promise<number> {
	await round(0);
	let held = heapHeld();
	let most = Number.NEGATIVE_INFINITY;
	for (const number of [1, 2]) {
		await round(number);
		const now = heapHeld();
		most = Math.max(most, now - held);
		held = now;
	}
	return most;
}
