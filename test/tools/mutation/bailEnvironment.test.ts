import BailEnvironment from '../../../tools/mutation/bailEnvironment';

describe('BailEnvironment: a mutant killed by one test skips its other tests', () => {
	const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
	const handle = (event: { name: string; test?: { mode?: string } }) => BailEnvironment.prototype.handleTestEvent.call({}, event);
	const start = async () => {
		const test: { mode?: string } = {};
		await handle({ name: 'test_start', test });
		return test.mode;
	};
	afterEach(() => delete process.env[ACTIVE_MUTANT]);

	it('after a failed test or hook, the same mutant\'s next tests are skipped', async () => {
		process.env[ACTIVE_MUTANT] = '7';
		expect(await start()).toBeUndefined();
		await handle({ name: 'test_fn_failure' });
		expect(await start()).toBe('skip');
		process.env[ACTIVE_MUTANT] = '8';
		await handle({ name: 'hook_failure' });
		expect(await start()).toBe('skip');
	});

	it('the next mutant runs every test again', async () => {
		process.env[ACTIVE_MUTANT] = '9';
		await handle({ name: 'test_fn_failure' });
		process.env[ACTIVE_MUTANT] = '10';
		expect(await start()).toBeUndefined();
	});

	it('the first run, with no mutant, runs every test: it finds which tests cover which mutant', async () => {
		process.env[ACTIVE_MUTANT] = '11';
		await handle({ name: 'test_fn_failure' });
		delete process.env[ACTIVE_MUTANT];
		await handle({ name: 'test_fn_failure' });
		expect(await start()).toBeUndefined();
	});
});
