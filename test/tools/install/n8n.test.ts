import * as fs from 'node:fs';
import * as path from 'node:path';

import { cache } from '../scratchCache';
import { keepBuild, nativeBuildEnv, reuseBuild } from '../../../tools/install/n8n';
import { defaultVersion, versionSpec } from '../../../tools/install/versions';

afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

// A native module as the installs hold it: its code loads what its build made (here a JS file
// standing in for the .node a compile makes).
const NAME = 'fake-native';
function installWith(version: string, built?: string) {
	const dir = fs.mkdtempSync(path.join(cache, 'install-'));
	const module = path.join(dir, 'node_modules', NAME);
	fs.mkdirSync(module, { recursive: true });
	fs.writeFileSync(path.join(module, 'package.json'), JSON.stringify({ name: NAME, version, main: 'index.js' }));
	fs.writeFileSync(path.join(module, 'index.js'), "module.exports = require('./build/Release/binding.js');");
	if (built !== undefined) {
		fs.mkdirSync(path.join(module, 'build', 'Release'), { recursive: true });
		fs.writeFileSync(path.join(module, 'build', 'Release', 'binding.js'), built);
	}
	return dir;
}
// A version on the tools' Node (not Node 24): its modules load under the Node running the tests.
const spec = { ...versionSpec(defaultVersion()), node: 20 as const };
const builtIn = (dir: string) => path.join(dir, 'node_modules', NAME, 'build', 'Release', 'binding.js');

describe('native builds kept between installs', () => {
	it('a second install of the same module version takes the first one\'s build instead of compiling; another version compiles', () => {
		const first = installWith('1.0.0', 'module.exports = "first build";');
		expect(reuseBuild(spec, installWith('1.0.0'), NAME)).toBe(false);
		keepBuild(spec, first, NAME);
		const second = installWith('1.0.0');
		expect(reuseBuild(spec, second, NAME)).toBe(true);
		expect(fs.readFileSync(builtIn(second), 'utf8')).toBe('module.exports = "first build";');
		expect(reuseBuild(spec, installWith('1.0.1'), NAME)).toBe(false);
	});

	it('a kept build that does not load is taken out of the install and the cache, so the module compiles and its build is kept', () => {
		keepBuild(spec, installWith('2.0.0', 'throw new Error("built for another Node");'), NAME);
		const next = installWith('2.0.0');
		expect(reuseBuild(spec, next, NAME)).toBe(false);
		expect(fs.existsSync(path.join(next, 'node_modules', NAME, 'build'))).toBe(false);
		keepBuild(spec, installWith('2.0.0', 'module.exports = "compiled again";'), NAME);
		const later = installWith('2.0.0');
		expect(reuseBuild(spec, later, NAME)).toBe(true);
		expect(fs.readFileSync(builtIn(later), 'utf8')).toBe('module.exports = "compiled again";');
	});

	it('keeps the first build of a module version, and nothing for a module without a build folder or not installed', () => {
		keepBuild(spec, installWith('3.0.0', 'module.exports = "kept";'), NAME);
		keepBuild(spec, installWith('3.0.0', 'module.exports = "later";'), NAME);
		const next = installWith('3.0.0');
		expect(reuseBuild(spec, next, NAME)).toBe(true);
		expect(fs.readFileSync(builtIn(next), 'utf8')).toBe('module.exports = "kept";');
		keepBuild(spec, installWith('4.0.0'), NAME);
		expect(reuseBuild(spec, installWith('4.0.0'), NAME)).toBe(false);
		expect(reuseBuild(spec, installWith('4.0.0'), 'not-installed')).toBe(false);
	});
});

describe("a native module's compile", () => {
	afterEach(() => jest.restoreAllMocks());

	it('compiles C at -O1, last so that it wins over the module\'s -O3, after flags the user set, with install scripts on', () => {
		const withoutFlags = { ...process.env };
		delete withoutFlags.CFLAGS;
		jest.replaceProperty(process, 'env', withoutFlags);
		expect(nativeBuildEnv(spec)).toMatchObject({ CFLAGS: '-O1', npm_config_ignore_scripts: 'false' });
		jest.replaceProperty(process, 'env', { ...withoutFlags, CFLAGS: '-g -march=native' });
		expect(nativeBuildEnv(spec).CFLAGS).toBe('-g -march=native -O1');
	});
});
