import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { packPackage } from '../../tools/common/package';
import { repoRoot } from '../../tools/common/paths';

/** The package as npm would publish it, unpacked. */
function unpack(): string {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'videoplatform-pack-'));
	const tarball = packPackage(work);
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	return path.join(work, 'package');
}

function filesUnder(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(full).map((f) => `${entry.name}/${f}`) : [entry.name];
	});
}

/** n8n's scanner, run as n8n runs it, in a process of its own (it is an ES module). */
function scan(folder: string, kind: 'source' | 'tarball') {
	const out = execFileSync(process.execPath, [path.join(repoRoot, 'tools', 'checks', 'scan-package.mjs'), folder, kind], {
		cwd: repoRoot,
		// eslint-plugin-n8n-nodes-base reads file names differently under NODE_ENV=test.
		env: { ...process.env, NODE_ENV: 'production' },
	});
	return JSON.parse(String(out)) as {
		passed: boolean;
		details?: string;
		filesLinted: number;
		errors: Array<{ file: string; rule: string }>;
		warnings: Array<{ file: string; rule: string; message: string }>;
	};
}

describe('the published package', () => {
	const dir = unpack();
	const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	const files = filesUnder(dir);

	it('holds only dist, README, LICENSE and package.json', () => {
		const outside = files.filter((f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f));
		expect(outside).toEqual([]);
		expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
	});

	it('holds no tests, sources or source maps', () => {
		expect(files.filter((f) => /\.(test|spec)\.|\.map$|\.ts$|(^|\/)test\//.test(f))).toEqual([]);
	});

	// Optional, so that `npm install` in n8n's nodes folder does not fetch a second n8n-workflow
	// (and its native isolated-vm) beside the package: n8n provides its own at run time.
	it('has no runtime dependencies and n8n-workflow as a * peer that npm does not install', () => {
		expect(manifest.dependencies ?? {}).toEqual({});
		expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(manifest.peerDependenciesMeta).toEqual({ 'n8n-workflow': { optional: true } });
	});

	it('points n8n at nodes and credentials that are in the tarball', () => {
		const listed = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		expect(manifest.n8n.n8nNodesApiVersion).toBe(1);
		expect(listed.length).toBe(4);
		for (const file of listed) expect(files).toContain(file);
	});

	// n8n verifies one service per package: its node, and a trigger beside it.
	it('ships one service: the Video Platform node and its trigger, nothing else', () => {
		expect(manifest.n8n.nodes).toEqual([
			'dist/nodes/VideoPlatform/VideoPlatform.node.js',
			'dist/nodes/VideoPlatform/VideoPlatformTrigger.node.js',
		]);
		expect(files.filter((f) => f.endsWith('.node.js'))).toEqual(expect.arrayContaining(manifest.n8n.nodes));
		expect(files.filter((f) => f.endsWith('.node.js'))).toHaveLength(2);
	});

	it('carries the metadata n8n and npm show', () => {
		expect(manifest.name).toMatch(/^n8n-nodes-/);
		expect(manifest.keywords).toContain('n8n-community-node-package');
		expect(manifest.license).toBe('MIT');
		expect(manifest.homepage).toMatch(/^https:\/\//);
		expect(manifest.author).toEqual(expect.objectContaining({ name: expect.any(String), email: expect.any(String) }));
		expect(manifest.repository.url).toMatch(/github\.com/);
		expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
	});

	it("passes n8n's scanner on the tarball with no error or warning", () => {
		const result = scan(dir, 'tarball');
		expect(result.errors).toEqual([]);
		expect(result.warnings).toEqual([]);
		expect(result.passed).toBe(true);
		expect(result.filesLinted).toBeGreaterThan(10);
	});

	it("passes n8n's scanner on the source with no error or warning", () => {
		const result = scan(repoRoot, 'source');
		expect(result.errors).toEqual([]);
		expect(result.warnings).toEqual([]);
		expect(result.passed).toBe(true);
	});

	it('the scanner does catch a violation, and ignores inline disables', () => {
		const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'videoplatform-scan-'));
		fs.cpSync(dir, copy, { recursive: true });
		const transport = path.join(copy, 'dist', 'nodes', 'VideoPlatform', 'transport', 'client.js');
		fs.appendFileSync(transport, '\n// eslint-disable-next-line\nsetTimeout(() => undefined, 1);\n');
		const result = scan(copy, 'tarball');
		expect(result.passed).toBe(false);
		expect(result.errors.map((e) => e.rule)).toContain('@n8n/community-nodes/no-restricted-globals');
	});
});
