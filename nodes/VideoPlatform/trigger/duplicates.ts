import type { IDataObject } from 'n8n-workflow';

const DEFAULT_WINDOW = 1000;

function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.keys(value).sort();
		return `{${entries.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * A delivery id compared by value: an object or a list as JSON with sorted keys (never as
 * "[object Object]"). A missing or empty id is no id, so it never drops a delivery.
 */
export function deliveryIdOf(value: unknown): string | undefined {
	if (value === undefined || value === null || String(value).trim() === '') return undefined;
	return typeof value === 'object' ? canonicalJson(value) : String(value);
}

/**
 * Remembers the last `size` delivery ids in the workflow's static data and tells whether an id
 * was seen already. The list is bounded, so memory stays flat however long the workflow runs.
 */
export function seenBefore(staticData: IDataObject, id: string, size: unknown): boolean {
	const recent = Array.isArray(staticData.recentDeliveryIds)
		? (staticData.recentDeliveryIds as string[])
		: [];
	if (recent.includes(id)) return true;
	recent.push(id);
	const window = Number.isFinite(Number(size)) && Number(size) >= 1 ? Math.floor(Number(size)) : DEFAULT_WINDOW;
	staticData.recentDeliveryIds = recent.slice(-window);
	return false;
}
