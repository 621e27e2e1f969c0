// `n8n-node build` compiles and copies the icons; this copies what it leaves: the codex files and index.js.
const { src, dest, task } = require('gulp');
const { rmSync } = require('node:fs');
const { testedTarballsList } = require('./tools/common/paths');

task('build', async () => {
	// n8n-node build copies every PNG and SVG of the repository, docs' screenshots included.
	rmSync('dist/docs', { recursive: true, force: true });
	// Tarballs the tests packed from an earlier build prove nothing about this one (tools/release).
	rmSync(testedTarballsList, { force: true });
	await new Promise((resolve, reject) =>
		src(['nodes/**/*.node.json', 'index.js'], { base: '.' }).pipe(dest('dist')).on('finish', resolve).on('error', reject),
	);
});
