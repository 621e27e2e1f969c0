import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../transport/client';

/**
 * Reads a parameter that the API takes as a string. Numbers and booleans from expressions are
 * sent as text; objects and lists are refused, since the platform would get something else
 * than the user meant.
 */
export function readTextParameter(
	this: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value: unknown = this.getNodeParameter(name, itemIndex, '');
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
		return String(value);
	}
	const kind = Array.isArray(value) ? 'a list' : 'an object';
	throw itemError(
		this.getNode(),
		itemIndex,
		`The ${label} field must be text, but it is ${kind}`,
		`If ${label} comes from an expression, point it at a single value, e.g. {{ $json.title }}, not at a whole object or list.`,
	);
}
