import { parseAllowedValues } from './filter';
import { OPTION_NAMES } from './choices';

/** The trigger's Options as a delivery reads them, or the option that cannot be read. */
interface TriggerOptions {
	deliveryIdField: string;
	filterField: string;
	filterValues: string[];
}

const isScalar = (value: unknown): value is string | number | boolean =>
	typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** A field path: text, or a number or true/false an expression gave; nothing else. */
function fieldOption(value: unknown): string | undefined {
	if (value === undefined || value === null) return '';
	return isScalar(value) ? String(value) : undefined;
}

/** Allowed values: text separated by commas, a list an expression gave, or one number. */
function valuesOption(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return [];
	if (typeof value === 'string') return parseAllowedValues(value);
	if (isScalar(value)) return [String(value)];
	if (!Array.isArray(value) || !value.every(isScalar)) return undefined;
	return value.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

/** The options, or the display name of the first one that is neither text nor what it may be instead. */
export function readTriggerOptions(raw: unknown): TriggerOptions | { unreadable: string } {
	const options = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
	const deliveryIdField = fieldOption(options.deliveryIdField);
	if (deliveryIdField === undefined) return { unreadable: OPTION_NAMES.deliveryIdField };
	const filterField = fieldOption(options.filterField);
	if (filterField === undefined) return { unreadable: OPTION_NAMES.filterField };
	const filterValues = valuesOption(options.filterValues);
	if (filterValues === undefined) return { unreadable: OPTION_NAMES.filterValues };
	return { deliveryIdField, filterField, filterValues };
}
