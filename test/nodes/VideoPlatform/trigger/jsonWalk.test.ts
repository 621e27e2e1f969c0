import fc from 'fast-check';

import { walkJson } from '../../../../nodes/VideoPlatform/trigger/jsonWalk';
import { jsonSpace } from '../../../helpers/unicode';

/** The value a walk describes, rebuilt from its events: scalars parsed from their text. */
function rebuilt(text: string): { value: unknown; end: number } {
	const open: Array<{ container: Record<string, unknown> | unknown[]; key: string | undefined }> = [];
	let key: string | undefined;
	let value: unknown;
	const add = (inner: unknown, name: string | undefined) => {
		const parent = open[open.length - 1];
		if (!parent) value = inner;
		else if (Array.isArray(parent.container)) parent.container.push(inner);
		else Object.defineProperty(parent.container, name as string, { value: inner, enumerable: true, configurable: true, writable: true });
	};
	const visitor: Parameters<typeof walkJson>[2] = {
		enter: (name) => void (key = name),
		scalar: (start, end) => add(JSON.parse(text.slice(start, end)), key),
		open: (start) => void open.push({ container: text[start] === '[' ? [] : {}, key }),
		close: () => {
			const done = open.pop()!;
			add(done.container, done.key);
		},
	};
	const end = walkJson(text, 0, visitor);
	return { value, end };
}

describe('walkJson', () => {
	it('describes every JSON value as JSON.parse reads it, full Unicode and any spacing (tabs and carriage returns too), and ends where it ends', () => {
		fc.assert(
			fc.property(fc.jsonValue({ maxDepth: 5, stringUnit: 'binary' }), jsonSpace, jsonSpace, (value, lead, indent) => {
				const text = `${lead}${JSON.stringify(value, null, indent)}`;
				const walked = rebuilt(`${text}  `);
				expect(walked.value).toEqual(JSON.parse(text));
				expect(walked.end).toBe(text.length);
			}),
			{ numRuns: 300 },
		);
	});

	it('ends a string at the first quote after an even run of backslashes, and reads on past a quote after an odd run', () => {
		for (const inner of ['\\', '\\\\', 'a\\"', '\\\\\\"b', '"\\']) {
			const text = JSON.stringify({ [inner]: [inner, 1] });
			expect(rebuilt(text)).toEqual({ value: JSON.parse(text), end: text.length });
		}
	});

	it('names list entries by index and object members by their decoded name, the last of one name counting', () => {
		const keys: Array<string | undefined> = [];
		walkJson('{"a\\u0062": [true, null], "ab": 1}', 0, { enter: (name) => void keys.push(name), scalar: () => undefined, open: () => undefined, close: () => undefined });
		expect(keys).toEqual([undefined, 'ab', '0', '1', 'ab']);
		expect(rebuilt('{"a": 1, "a": 2}').value).toEqual({ a: 2 });
	});

	it('ends on any text, JSON or not: within it, or with a SyntaxError for a member name that is not JSON', () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ',', ':', ' ', '1', 'a') }), (text) => {
				let reads = 0;
				const counting = { enter: () => void reads++, scalar: () => void reads++, open: () => void reads++, close: () => void reads++ };
				try {
					expect(walkJson(text, 0, counting)).toBeLessThanOrEqual(text.length);
				} catch (error) {
					expect(error).toBeInstanceOf(SyntaxError);
				}
				// An opening character makes three events (enter, open, close); any other at most two.
				expect(reads).toBeLessThanOrEqual(3 * text.length + 2);
			}),
			{ numRuns: 500 },
		);
	});
});
