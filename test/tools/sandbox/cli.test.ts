import { optionsFrom } from '../../../tools/sandbox/cli';

describe('npm run sandbox options', () => {
	it('takes an option from the command line first, then from its SANDBOX_ variable', () => {
		const { option } = optionsFrom(['--port', '9000', '--fault', 'cut-off'], { SANDBOX_PORT: '1', SANDBOX_FAULT_MATCH: 'rooms', SANDBOX_MAX_LIFETIME_S: '60' });
		expect(option('port')).toBe('9000');
		expect(option('fault')).toBe('cut-off');
		expect(option('fault-match')).toBe('rooms');
		expect(option('max-lifetime-s')).toBe('60');
		expect(option('api-key')).toBeUndefined();
	});

	it('refuses an unknown option', () => {
		expect(() => optionsFrom(['--prot', '9000'], {})).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }));
	});
});
