// The test layers (docs/development.md, "Tests"):
// unit: in-process, seconds, with mocked n8n contexts and HTTP against the sandbox.
// workflows: whole workflows (test/workflows/*.json) run by n8n-core's engine in-process, against the sandbox.
// package: packs the tarball and runs n8n's scanner.
// e2e: drives real n8n (the versions of tools/install/versions.js) and takes minutes.
// load: hundreds of deliveries and rooms, long back-offs, in real n8n: `npm run bench:load` only;
// `npm test` selects unit, workflows, package and e2e.
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.test.json' }];
const project = (displayName, extra) => ({
	displayName,
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest },
	// What the tests and n8n write while they run: jest's file map never reads it, or a file removed
	// mid-read by the other lane (tools/checks/jestLanes.js) stops jest's start.
	modulePathIgnorePatterns: ['<rootDir>/.scratch/', '<rootDir>/.n8n-local/'],
	...extra,
});

module.exports = {
	testSequencer: '<rootDir>/test/sequencer.js',
	projects: [
		project('unit', {
			testMatch: ['<rootDir>/test/**/*.test.ts'],
			testPathIgnorePatterns: ['<rootDir>/test/(e2e|package|workflows|load)/'],
		}),
		project('workflows', { testMatch: ['<rootDir>/test/workflows/**/*.test.ts'] }),
		project('package', { testMatch: ['<rootDir>/test/package/**/*.test.ts'] }),
		project('e2e', {
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/e2e/setup.ts'],
		}),
		project('load', {
			testMatch: ['<rootDir>/test/load/**/*.load.test.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/e2e/setup.ts'],
		}),
	],
};
