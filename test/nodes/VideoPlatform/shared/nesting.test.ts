import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../../../../nodes/VideoPlatform/shared/nesting';

/** `levels` lists or objects around one string: the outermost is level 1. */
function nested(levels: number, wrap: (inner: unknown) => unknown): unknown {
	let value: unknown = 'x';
	for (let i = 0; i < levels; i++) value = wrap(value);
	return value;
}

const inList = (inner: unknown) => [inner];
const inObject = (inner: unknown) => ({ a: inner });

describe('nestsDeeperThan', () => {
	it.each([
		['lists', inList],
		['objects', inObject],
	])('counts levels of %s exactly', (_label, wrap) => {
		expect(nestsDeeperThan(nested(3, wrap), 3)).toBe(false);
		expect(nestsDeeperThan(nested(4, wrap), 3)).toBe(true);
	});

	it('counts levels across lists and objects mixed, on any branch', () => {
		const value = { short: [1], long: [{ b: [{ c: 'x' }] }] };
		expect(nestsDeeperThan(value, 5)).toBe(false);
		expect(nestsDeeperThan(value, 4)).toBe(true);
	});

	it.each([null, 'text', 12, true, undefined])('takes %p for no nesting at all', (value) => {
		expect(nestsDeeperThan(value, 0)).toBe(false);
	});

	it('checks a million levels without overflowing the stack', () => {
		expect(nestsDeeperThan(nested(1_000_000, inList), MAX_NESTING_DEPTH)).toBe(true);
	});

	it('allows as many levels as a real payload or answer could need, far below what n8n can copy', () => {
		expect(MAX_NESTING_DEPTH).toBe(100);
		expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH, inObject), MAX_NESTING_DEPTH)).toBe(false);
		expect(() => structuredClone(nested(MAX_NESTING_DEPTH, inObject))).not.toThrow();
	});
});
