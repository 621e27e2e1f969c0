// Copies the node and credential icons next to the compiled code; tsc copies only .ts output.
const { src, dest, task } = require('gulp');

task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'nodes/**/*.node.json'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist')),
);
