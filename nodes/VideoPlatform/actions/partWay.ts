/** Indexes as short ranges, e.g. "0-4, 6, 8-9". */
export function indexRanges(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		ranges.push(start === end ? `${sorted[start]}` : `${sorted[start]}-${sorted[end]}`);
		start = end + 1;
	}
	return ranges.join(', ');
}

/**
 * What a run that stopped at a failure had already done, so that nobody runs the whole
 * workflow again blind to it. Empty when nothing had succeeded.
 */
export function partWayReport(succeeded: number[], creates?: string): string {
	if (succeeded.length === 0) return '';
	const one = succeeded.length === 1;
	const items = one ? `1 item` : `${succeeded.length} items`;
	const which = `${one ? 'item' : 'items'} ${indexRanges(succeeded)}`;
	const done = creates ? `got a ${creates}` : 'succeeded';
	const again = creates ? `create ${one ? `that ${creates}` : `those ${creates}s`} again` : `send ${one ? 'it' : 'them'} again`;
	return (
		`This run stopped at this failure, and ${items} had already ${done} in it (${which}; n8n counts items from 0). ` +
		`Running the whole workflow again would ${again}. ` +
		'To run every item and get each failure as an output item instead, set Settings → On Error to "Continue" on this node.'
	);
}
