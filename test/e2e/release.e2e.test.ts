// The release's publish step itself (tools/release/publish.js, as .github/workflows/release.yml runs
// it), against a local registry: it publishes only the tested tarball and only when the checks
// pass. Provenance cannot be made offline (it needs GitHub's OIDC token and npm's transparency
// log), so this test publishes with --no-provenance; the workflow publishes with --provenance.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { repoRoot, scratchRoot } from '../../tools/common/paths';
import { integrityOf } from '../../tools/release/checks';
import { startRegistry } from '../../tools/standin/registry';
import { packedTarball } from './packedTarball';

const work = path.join(scratchRoot, `e2e-release-${process.pid}`);
type Published = { versions: Record<string, { dist: { integrity: string; tarball: string } }> };

const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

describe('the release publish step, against a local registry', () => {
	let registry: Awaited<ReturnType<typeof startRegistry>>;
	let env: NodeJS.ProcessEnv;

	const node = (script: string, args: string[], root = repoRoot) =>
		spawnSync(process.execPath, [path.join(root, 'tools', 'release', script), ...args], { cwd: root, env, encoding: 'utf8' });
	const publish = (tarball: string, tag = `v${version}`, root = repoRoot) =>
		node('publish.js', ['--tarball', tarball, '--tag', tag, '--registry', `${registry.url}/`, '--no-provenance'], root);

	/**
	 * The release tools in a checkout as the owners' release commit has it: the changelog's
	 * "Unreleased" heading renamed to the version (this repository's is still Unreleased).
	 */
	function ownersCheckout(): string {
		const root = path.join(work, 'owners-checkout');
		for (const folder of ['tools/release', 'tools/common']) cpSync(path.join(repoRoot, folder), path.join(root, folder), { recursive: true });
		const changelog = readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8');
		writeFileSync(path.join(root, 'CHANGELOG.md'), changelog.replace(/^## Unreleased$/m, `## ${version}`));
		return root;
	}
	const published = async () => {
		const url = `${registry.url}/n8n-nodes-videoplatform`;
		// A GET, asked once more when it fails: the registry may close a kept-alive connection just
		// as fetch reuses it ("other side closed", seen once in a from-nothing run).
		const answer = await fetch(url).catch(async () => await fetch(url));
		return answer.ok ? ((await answer.json()) as Published) : undefined;
	};

	/** The tested tarball with the owners' fields filled in, repacked, as the owners' release would be. */
	function ownersTarball(): string {
		const unpacked = path.join(work, 'owners');
		mkdirSync(unpacked, { recursive: true });
		execFileSync('tar', ['-xzf', path.join(work, 'tested', `n8n-nodes-videoplatform-${version}.tgz`), '-C', unpacked, '--strip-components=1']);
		const manifest = JSON.parse(readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
		writeFileSync(path.join(unpacked, 'package.json'), JSON.stringify({ ...manifest, author: { name: 'Ada Lovelace', email: 'ada@videoplatform.io' } }, null, 2));
		const tarball = path.join(work, 'owners-pack', execFileSync('npm', ['pack', '--silent', '--pack-destination', path.join(work, 'owners-pack'), unpacked], { encoding: 'utf8' }).trim());
		writeFileSync(`${tarball}.integrity`, `${integrityOf(tarball)}\n`);
		return tarball;
	}

	beforeAll(async () => {
		rmSync(work, { recursive: true, force: true });
		mkdirSync(path.join(work, 'owners-pack'), { recursive: true });
		registry = await startRegistry({ dir: path.join(work, 'registry') });
		const npmrc = path.join(work, 'npmrc');
		writeFileSync(npmrc, `//127.0.0.1:${new URL(registry.url).port}/:_authToken=${registry.authToken}\n`);
		env = { ...process.env, npm_config_userconfig: npmrc, npm_config_cache: path.join(work, 'npm-cache') };
		delete env.GITHUB_REPOSITORY;
		// What the suite tested, recorded as every pack of this build is.
		await packedTarball();
	});

	afterAll(async () => {
		await registry?.stop();
		rmSync(work, { recursive: true, force: true });
	});

	it('packs the build the tests packed, and writes its integrity beside it', () => {
		const packed = node('pack.js', [path.join(work, 'tested')]);
		expect(packed.stderr).toBe('');
		const tarball = packed.stdout.split('\n')[0];
		expect(readFileSync(`${tarball}.integrity`, 'utf8').trim()).toBe(integrityOf(tarball));
	});

	it("stops this package today, naming the owners' field and the unreleased changelog, and publishes nothing", async () => {
		const result = publish(path.join(work, 'tested', `n8n-nodes-videoplatform-${version}.tgz`));
		expect(result.status).toBe(1);
		expect(result.stderr).toContain('"author.email" (integrations@videoplatform.example) is a placeholder');
		expect(result.stderr).toContain(`CHANGELOG.md has no "## ${version}" entry.`);
		expect(await published()).toBeUndefined();
	});

	it('refuses a tag that is not the version, and a tarball whose bytes differ from the tested ones', async () => {
		const tarball = ownersTarball();
		expect(publish(tarball, 'v9.9.9').stderr).toContain(`The tag "v9.9.9" is not "v" + package.json "version" (${version})`);
		writeFileSync(`${tarball}.integrity`, `${integrityOf(path.join(work, 'tested', `n8n-nodes-videoplatform-${version}.tgz`))}\n`);
		expect(publish(tarball).stderr).toContain('is not the tarball that was tested');
		expect(await published()).toBeUndefined();
	});

	it('publishes exactly the checked tarball: the registry serves the same bytes', async () => {
		const tarball = ownersTarball();
		const result = publish(tarball, `v${version}`, ownersCheckout());
		expect(result.status).toBe(0);
		const document = (await published())!;
		expect(document.versions[version].dist.integrity).toBe(integrityOf(tarball));
		const served = Buffer.from(await (await fetch(document.versions[version].dist.tarball)).arrayBuffer());
		expect(served.equals(readFileSync(tarball))).toBe(true);
	});
});
