/**
 * How deeply JSON that becomes an item may nest: a delivery the trigger takes, an answer the
 * action node returns. n8n copies and stores items with recursive code that overflows the stack
 * at a few thousand levels (JSON.stringify at about 4,000, structuredClone at about 2,000 on
 * Node 20), and so would the delivery key's canonical JSON; real JSON nests a handful of levels.
 */
export const MAX_NESTING_DEPTH = 100;

/** Whether lists and objects nest more than `limit` levels deep. Iterative, so any depth is safe. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
	const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
	for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
		if (next.value === null || typeof next.value !== 'object') continue;
		if (next.depth === limit) return true;
		for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
	}
	return false;
}
