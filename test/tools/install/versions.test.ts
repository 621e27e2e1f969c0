import * as path from 'node:path';

import { listing, planFrom } from '../../../tools/install/cli';
import { INSTALL_METHODS, recipeOf } from '../../../tools/install/n8n';
import {
	N8N_VERSIONS,
	UnknownVersionError,
	defaultVersion,
	installableVersions,
	majorOf,
	newestFirst,
	resolveVersion,
	versionSpec,
} from '../../../tools/install/versions';
import { userFolderFor } from '../../../tools/start';

type Entry = Record<string, unknown> & { capabilities?: Record<string, unknown>; notInstallable?: string };
const table = N8N_VERSIONS as Record<string, Entry>;
const installable = installableVersions();

// A made-up list, so that the rules are shown apart from today's versions.
const caps = { taskBroker: true };
const fake = {
	'3.0.0': { notInstallable: 'its packages are missing' },
	'2.50.0': { node: 24, role: 'smoke', capabilities: caps },
	'2.41.1': { node: 24, role: 'full', capabilities: caps },
	'2.9.0': { node: 24, role: 'full', capabilities: caps },
	'1.123.50': { node: 20, role: 'full', capabilities: caps },
	'1.123.81': { node: 20, role: 'smoke', capabilities: caps },
};

describe('the version list', () => {
	it('offers at least one fully tested version', () => {
		expect(installableVersions({ role: 'full' }).length).toBeGreaterThan(0);
	});

	it('gives every installable version the same fields and the same capabilities, so none is forgotten', () => {
		const [first, ...others] = installable.map((version) => table[version]);
		for (const entry of others) {
			expect(Object.keys(entry).sort()).toEqual(Object.keys(first).sort());
			expect(Object.keys(entry.capabilities!).sort()).toEqual(Object.keys(first.capabilities!).sort());
		}
	});

	it('uses only install methods and roles the tools know', () => {
		for (const version of installable) {
			expect(INSTALL_METHODS).toContain(table[version].installWith);
			expect(['full', 'smoke']).toContain(table[version].role);
			expect([20, 24]).toContain(table[version].node);
			expect(table[version].nativeModules).toContain('sqlite3');
		}
	});

	it('says why a version cannot be installed, and nothing else about it', () => {
		for (const [version, entry] of Object.entries(table).filter(([, e]) => e.notInstallable)) {
			expect(Object.keys(entry)).toEqual(['notInstallable']);
			expect(() => versionSpec(version)).toThrow(new UnknownVersionError(`n8n ${version} cannot be installed: ${entry.notInstallable}`));
		}
	});
});

describe('version lookups', () => {
	it('orders versions by number, newest first', () => {
		expect(['2.9.0', '1.123.81', '2.41.1', '1.123.50', '2.41'].sort(newestFirst)).toEqual(['2.41.1', '2.41', '2.9.0', '1.123.81', '1.123.50']);
	});

	it('lists the installable versions newest first, by role when asked', () => {
		expect(installableVersions({}, fake)).toEqual(['2.50.0', '2.41.1', '2.9.0', '1.123.81', '1.123.50']);
		expect(installableVersions({ role: 'full' }, fake)).toEqual(['2.41.1', '2.9.0', '1.123.50']);
		expect(installableVersions({ role: 'smoke' }, fake)).toEqual(['2.50.0', '1.123.81']);
	});

	it('takes a major as its newest fully tested version, never a smoke-only or uninstallable one', () => {
		expect(defaultVersion(2, fake)).toBe('2.41.1');
		expect(defaultVersion('1', fake)).toBe('1.123.50');
		expect(defaultVersion(undefined, fake)).toBe('2.41.1');
		expect(resolveVersion('2', fake)).toBe('2.41.1');
		expect(resolveVersion(' 1 ', fake)).toBe('1.123.50');
		expect(() => resolveVersion('3', fake)).toThrow(UnknownVersionError);
	});

	it('keeps a version named in full, and refuses one it does not know or cannot install', () => {
		expect(resolveVersion('1.123.81', fake)).toBe('1.123.81');
		expect(versionSpec('2.9.0', fake)).toEqual({ version: '2.9.0', ...fake['2.9.0'] });
		expect(() => resolveVersion('2.41.2', fake)).toThrow('n8n "2.41.2" is not in tools/install/versions.js; known: 2.50.0, 2.41.1, 2.9.0, 1.123.81, 1.123.50');
		expect(() => resolveVersion('3.0.0', fake)).toThrow('n8n 3.0.0 cannot be installed: its packages are missing');
		expect(() => resolveVersion('constructor', fake)).toThrow(UnknownVersionError);
	});
});

describe('the install recipe', () => {
	const spec = { version: '2.41.1', node: 24, overrides: { linkedom: '0.18.14' }, installWith: 'a', role: 'full', capabilities: caps };

	it('changes with what is installed: the version, its Node, the overrides', () => {
		for (const change of [{ version: '2.41.2' }, { node: 20 }, { overrides: {} }, { overrides: { linkedom: '0.18.13' } }]) {
			expect(recipeOf({ ...spec, ...change })).not.toBe(recipeOf(spec));
		}
	});

	it('stays the same when only the role, the capabilities or the install method change', () => {
		expect(recipeOf({ ...spec, role: 'smoke', capabilities: {}, installWith: 'b' })).toBe(recipeOf(spec));
	});
});

describe('node tools/install/cli.js', () => {
	it('installs every installable version when given none, and a major as its default version', () => {
		expect(planFrom([])).toEqual({ versions: installable });
		const standard = defaultVersion();
		expect(planFrom([String(majorOf(standard)), standard])).toEqual({ versions: [standard] });
	});

	it('refuses an unknown version or option before installing anything', () => {
		const notInstallable = Object.keys(table).filter((version) => table[version].notInstallable);
		for (const version of ['0.1.0', ...notInstallable]) expect(() => planFrom([version])).toThrow(UnknownVersionError);
		expect(() => planFrom(['--bogus'])).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }));
	});

	it('--help and --list install nothing; the list names every known version, and why one cannot be installed', () => {
		expect(planFrom(['--help'])).toEqual({ help: true });
		expect(planFrom(['--list', '2'])).toEqual({ list: true });
		const lines = listing().split('\n');
		expect(lines.map((line) => line.split(' ')[0])).toEqual(Object.keys(table).sort(newestFirst));
		for (const [version, entry] of Object.entries(table).filter(([, e]) => e.notInstallable)) {
			expect(lines).toContain(`${version}  not installable: ${entry.notInstallable}`);
		}
	});
});

describe("npm start's --n8n", () => {
	it('keeps one user folder per major for a major, and one per version for a version named in full', () => {
		const [newest] = installable;
		const major = String(majorOf(newest));
		expect(userFolderFor('/data', major)).toBe(path.join('/data', `n8n-${major}`));
		expect(userFolderFor('/data', newest)).toBe(path.join('/data', `n8n-${newest}`));
		expect(() => userFolderFor('/data', '0.1.0')).toThrow(UnknownVersionError);
	});
});
