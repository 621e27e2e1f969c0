// unit: in-process, seconds. package: packs the tarball and runs n8n's scanner.
// e2e: drives real n8n (the versions of tools/lib/n8n-versions.js) and takes minutes.
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.test.json' }];
const project = (displayName, extra) => ({
	displayName,
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest },
	...extra,
});

module.exports = {
	testSequencer: '<rootDir>/test/sequencer.js',
	projects: [
		project('unit', {
			testMatch: ['<rootDir>/test/**/*.test.ts'],
			testPathIgnorePatterns: ['<rootDir>/test/e2e/', '<rootDir>/test/package/'],
		}),
		project('package', { testMatch: ['<rootDir>/test/package/**/*.test.ts'] }),
		project('e2e', {
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/e2e/setup.ts'],
		}),
	],
};
