import type { IDataObject } from 'n8n-workflow';

import { EVENT_KIND_FIELD } from '../platform';
import { valueAt } from './delivery';
import { ALL_DELIVERIES } from './choices';
import { exactSourceAt } from './rawJson';

/** Splits "a, b ,c" into ["a", "b", "c"]. */
export function parseAllowedValues(list: string): string[] {
	return list
		.split(',')
		.map((value) => value.trim())
		.filter((value) => value !== '');
}

/** How a field compares: `inexact` when it holds a number whose text the body does not give, so that the comparison could not be made as sent. */
type FieldMatch = 'match' | 'noMatch' | 'inexact';

/**
 * Whether the field at `path` holds one of the allowed values, compared as text: a number as the
 * raw body wrote it (JSON.parse rounds those beyond 2^53), or as JavaScript writes it unless that
 * is a rounded integer. A number the body gives no text for is compared as JavaScript writes it
 * only when it is a whole number within ±2^53; any other is `inexact` when an allowed value is the
 * same number (the text sent may have been that value), else no match.
 */
export function fieldMatch(payload: IDataObject, path: string, allowed: string[], rawJson?: string): FieldMatch {
	if (path.trim() === '' || allowed.length === 0) return 'match';
	const value = valueAt(payload, path.trim());
	if (value === undefined || value === null || typeof value === 'object') return 'noMatch';
	if (typeof value !== 'number') return allowed.includes(String(value)) ? 'match' : 'noMatch';
	const sent = exactSourceAt(rawJson, path.trim(), value);
	if (sent !== undefined && allowed.includes(sent)) return 'match';
	// An integer beyond 2^53 as JavaScript writes it is another number than the one sent.
	const rounded = Number.isInteger(value) && !Number.isSafeInteger(value);
	if (sent !== undefined || Number.isSafeInteger(value)) return !rounded && allowed.includes(String(value)) ? 'match' : 'noMatch';
	return allowed.some((text) => text.trim() !== '' && Number(text) === value) ? 'inexact' : 'noMatch';
}

/** fieldMatch, where a comparison that could not be made as sent lets the delivery through. */
function fieldMatches(payload: IDataObject, path: string, allowed: string[], rawJson?: string): boolean {
	return fieldMatch(payload, path, allowed, rawJson) !== 'noMatch';
}

/** "Trigger On": every delivery until event kinds, and the field naming them, are published. */
export function eventMatches(payload: IDataObject, event: string): boolean {
	if (event === ALL_DELIVERIES || EVENT_KIND_FIELD === undefined) return true;
	return fieldMatches(payload, EVENT_KIND_FIELD, [event]);
}
