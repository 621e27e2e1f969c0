import * as fs from 'node:fs';
import * as path from 'node:path';

import { DOCS_DIR, RETAKE, editorDigest, picturesInDocs, readManifest } from '../helpers/screenshots';

// The docs' pictures are the real-browser test's, of the editor as the source describes it now.
describe("the docs' pictures", () => {
	const manifest = readManifest();

	it('are each one the real-browser test took, and each is shown', () => {
		expect(Object.keys(manifest.pictures).sort()).toEqual(picturesInDocs());
		for (const picture of Object.keys(manifest.pictures)) expect(fs.existsSync(path.join(DOCS_DIR, picture))).toBe(true);
	});

	it('show what the nodes, credentials and codex files describe now', () => {
		// When this fails, take the pictures again (the manifest's `retake` command) and commit docs/.
		const now = editorDigest();
		const stale = Object.entries(manifest.pictures).filter(([, { editorDigest: then }]) => then !== now).map(([name]) => name);
		expect({ stale, retake: manifest.retake }).toEqual({ stale: [], retake: RETAKE });
	});
});
