import type { IDataObject } from 'n8n-workflow';

/**
 * Remembers the last `size` delivery ids in the workflow's static data and tells whether an id
 * was seen already. The list is bounded, so memory stays flat however long the workflow runs.
 */
export function seenBefore(staticData: IDataObject, id: string, size: number): boolean {
	const recent = Array.isArray(staticData.recentDeliveryIds)
		? (staticData.recentDeliveryIds as string[])
		: [];
	if (recent.includes(id)) return true;
	recent.push(id);
	staticData.recentDeliveryIds = recent.slice(-Math.max(1, size));
	return false;
}
