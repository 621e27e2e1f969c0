import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { VideoPlatformWebhookApi } from '../../credentials/VideoPlatformWebhookApi.credentials';
import { repoRoot } from '../../tools/common/paths';
import { VideoPlatform } from '../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../nodes/VideoPlatform/VideoPlatformTrigger.node';

/**
 * The docs' pictures are taken by the real-browser test (test/e2e/browser.e2e.test.ts) and
 * committed with this manifest: for each, the n8n version it shows and the digest of what the
 * package showed in the editor when it was taken. A package test compares the digest with the
 * source, so a change the pictures would show fails until they are taken again
 * (docs/development.md, "The docs' pictures").
 */
export const DOCS_DIR = path.join(repoRoot, 'docs');
export const MANIFEST = path.join(DOCS_DIR, 'screenshots.json');

export interface ScreenshotManifest {
	/** How to take them again. */
	retake: string;
	/** Each picture's file name in docs/: the n8n version it shows, and editorDigest() when it was taken. */
	pictures: Record<string, { n8n: string; editorDigest: string }>;
}

export const RETAKE = 'VIDEOPLATFORM_UPDATE_SCREENSHOTS=1 npx jest test/e2e/browser.e2e.test.ts test/e2e/firstRun.e2e.test.ts --selectProjects e2e';

/**
 * What the editor shows of the package, from the source: the nodes' and credentials'
 * descriptions (fields, hints, trigger panel, texts) and the codex files the node creator
 * searches. Code that runs, the README and the tools are left out: they change no picture.
 */
export function editorDigest(): string {
	const codex = ['VideoPlatform.node.json', 'VideoPlatformTrigger.node.json'].map((name) =>
		JSON.parse(fs.readFileSync(path.join(repoRoot, 'nodes', 'VideoPlatform', name), 'utf8')),
	);
	const credentials = [new VideoPlatformApi(), new VideoPlatformWebhookApi()].map(({ name, displayName, properties }) => ({ name, displayName, properties }));
	const shown = { nodes: [new VideoPlatform().description, new VideoPlatformTrigger().description], credentials, codex };
	return createHash('sha256').update(JSON.stringify(shown)).digest('hex');
}

export function readManifest(): ScreenshotManifest {
	return JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as ScreenshotManifest;
}

/** The pictures the README and docs/*.md show (relative image links to a .png in docs/). */
export function picturesInDocs(): string[] {
	const pages = [path.join(repoRoot, 'README.md'), ...fs.readdirSync(DOCS_DIR).filter((f) => f.endsWith('.md')).map((f) => path.join(DOCS_DIR, f))];
	const found = new Set<string>();
	for (const page of pages) {
		for (const [, target] of fs.readFileSync(page, 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+\.png)\)/g)) {
			found.add(path.basename(target));
		}
	}
	return [...found].sort();
}
