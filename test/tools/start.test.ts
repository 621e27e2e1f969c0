import * as path from 'node:path';

import { repoRoot } from '../../tools/common/paths';
import { defaultVersion, majorOf } from '../../tools/install/versions';
import { optionsFrom } from '../../tools/start';

describe('npm start options', () => {
	it('defaults to the default major, the usual ports and .n8n-local', () => {
		expect(optionsFrom([])).toEqual({
			n8n: String(majorOf(defaultVersion())),
			port: 5678,
			sandboxPort: 8787,
			dataDir: path.join(repoRoot, '.n8n-local'),
			queue: false,
			exitWhenReady: false,
			help: false,
		});
	});

	it('reads every option, in any order', () => {
		const options = optionsFrom(['--exit-when-ready', '--port', '0', '--sandbox-port', '0', '--data', 'elsewhere', '--n8n', '1', '--queue']);
		expect(options).toMatchObject({ n8n: '1', port: 0, sandboxPort: 0, dataDir: path.resolve('elsewhere'), queue: true, exitWhenReady: true });
	});

	it('refuses an unknown option or one without its value', () => {
		expect(() => optionsFrom(['--prot', '1'])).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }));
		expect(() => optionsFrom(['--port'])).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }));
	});
});
