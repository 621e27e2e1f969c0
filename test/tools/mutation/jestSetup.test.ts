import fc from 'fast-check';

import '../../../tools/mutation/jestSetup';

describe('jestSetup: mutation runs end a failed property at once', () => {
	afterAll(() => fc.resetConfigureGlobal());

	it('a failing property is not shrunk: it stops at its first counterexample', () => {
		let runs = 0;
		expect(() =>
			fc.assert(
				fc.property(fc.string({ unit: 'binary', minLength: 50 }), (text) => {
					runs++;
					return text.length < 50;
				}),
			),
		).toThrow();
		expect(runs).toBe(1);
	});
});
