import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
const declared = new Set([...Object.keys(manifest.devDependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);

/**
 * Named in code that runs elsewhere, inside an installed n8n's folder: the installer's check
 * script (n8n), and the trigger bench's database scripts (n8n's own sqlite3).
 */
const RESOLVED_ELSEWHERE = new Set(['n8n', 'sqlite3']);

function filesUnder(dir: string): string[] {
	return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return filesUnder(relative);
		return /\.(ts|js|mjs)$/.test(entry.name) ? [relative] : [];
	});
}

/** The packages a file imports or requires: `@scope/name` or `name`, never a path or a Node built-in. */
function packagesImportedBy(file: string): string[] {
	const text = readFileSync(path.join(root, file), 'utf8');
	const specifiers = [...text.matchAll(/(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)['"]([^'"]+)['"]/g)].map((match) => match[1]);
	return specifiers
		.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:') && !builtinModules.includes(specifier.split('/')[0]))
		.map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
}

describe('what the tools and tests import', () => {
	const files = ['tools', 'test', 'nodes', 'credentials'].flatMap(filesUnder).concat(['gulpfile.js', 'jest.config.js', 'eslint.config.mjs']);

	it('is declared in package.json, so that npm ci on a fresh machine installs it', () => {
		const undeclared = files.flatMap((file) => packagesImportedBy(file).filter((name) => !declared.has(name) && !RESOLVED_ELSEWHERE.has(name)).map((name) => `${file}: ${name}`));
		expect(undeclared).toEqual([]);
	});
});
