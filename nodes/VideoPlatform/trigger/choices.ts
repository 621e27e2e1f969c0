import { EDITOR_NAMES } from '../shared/deliveryKey';

// What the trigger's description offers and its delivery handling reads, in one leaf both import.

/** Trigger On's value for every delivery, until the platform publishes its event kinds. */
export const ALL_DELIVERIES = '*';

/** The Authentication option's values: only `none` turns the secret check off. */
export const AUTHENTICATION = { none: 'none', secretHeader: 'secretHeader' } as const;

/** The options' display names: the fields and the refusals (options.ts) name them alike. */
export const OPTION_NAMES = {
	deliveryIdField: EDITOR_NAMES.deliveryIdField,
	filterField: 'Only When Field',
	filterValues: 'Has One Of These Values',
} as const;
