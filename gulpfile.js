// Copies the icons, codex files and index.js next to the compiled code; tsc emits only .ts output.
const { src, dest, task } = require('gulp');

task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'nodes/**/*.node.json', 'index.js'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist')),
);
