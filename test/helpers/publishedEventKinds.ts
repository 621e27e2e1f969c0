import type * as Platform from '../../nodes/VideoPlatform/platform';

/**
 * The platform module as if the spec named the field that holds a delivery's event kind, for the
 * test files that mock it with `platformModule`. The module is loaded once, not reloaded per test:
 * a module reloaded inside a test makes mutation testing count its constants as covered by that
 * test alone, and report them as survived.
 */
let publishedField: string | undefined;

export function publishEventKindField(field: string | undefined): void {
	publishedField = field;
}

/** The real module, whose EVENT_KIND_FIELD reads as published while a test publishes one. */
export function platformModule(): typeof Platform {
	const actual = jest.requireActual<typeof Platform>('../../nodes/VideoPlatform/platform');
	return {
		...actual,
		get EVENT_KIND_FIELD() {
			return publishedField ?? actual.EVENT_KIND_FIELD;
		},
	};
}
