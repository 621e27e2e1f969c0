import path from 'node:path';

import fc from 'fast-check';

import { mirrorTestFile, runOrder } from '../../../tools/mutation/sequencer';
import { anyText } from '../../helpers/unicode';

describe("sequencer: the order of a mutant's test files", () => {
	const file = (name: string, { failed = false, duration }: { failed?: boolean; duration?: number } = {}) => ({ path: `/repo/test/${name}.test.ts`, failed, duration });
	const order = (files: ReturnType<typeof file>[], mirror?: string) =>
		runOrder(files, { failed: (f) => f.failed, duration: (f) => f.duration, mirror }).map((f) => path.basename(f.path, '.test.ts'));

	it('runs the quickest first, and those without a time last', () => {
		expect(order([file('slow', { duration: 9000 }), file('unknown'), file('quick', { duration: 40 })])).toEqual(['quick', 'slow', 'unknown']);
	});

	it("runs the mutated file's own test file before quicker ones", () => {
		expect(order([file('quick', { duration: 40 }), file('secretTraces', { duration: 11_000 })], '/repo/test/secretTraces.test.ts')).toEqual(['secretTraces', 'quick']);
	});

	it('runs a file that failed in the last run before all others, its own test file included', () => {
		expect(order([file('own', { duration: 5 }), file('killer', { failed: true, duration: 9000 })], '/repo/test/own.test.ts')).toEqual(['killer', 'own']);
	});

	it('keeps every file once, in the same order whatever order they came in', () => {
		const files = fc.uniqueArray(fc.record({ name: anyText({ minLength: 1 }), failed: fc.boolean(), duration: fc.option(fc.nat(), { nil: undefined }) }), { selector: (f) => f.name });
		fc.assert(
			fc.property(files, (records) => {
				const all = records.map((r) => file(r.name, r));
				const ordered = order(all);
				expect([...ordered].sort()).toEqual(all.map((f) => path.basename(f.path, '.test.ts')).sort());
				expect(order([...all].reverse())).toEqual(ordered);
			}),
		);
	});
});

describe('mirrorTestFile', () => {
	it('names the test file after the source file, under test/', () => {
		expect(mirrorTestFile('/sandbox', '/sandbox/nodes/VideoPlatform/shared/secretTraces.ts')).toBe('/sandbox/test/nodes/VideoPlatform/shared/secretTraces.test.ts');
		expect(mirrorTestFile('/sandbox', '/sandbox/credentials/VideoPlatformApi.credentials.ts')).toBe('/sandbox/test/credentials/VideoPlatformApi.credentials.test.ts');
	});
});
