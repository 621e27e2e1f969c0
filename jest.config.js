// Unit and HTTP tests run in-process; e2e tests drive a real n8n and take minutes.
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.test.json' }];

module.exports = {
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/**/*.test.ts'],
			testPathIgnorePatterns: ['<rootDir>/test/e2e/'],
		},
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/e2e/setup.ts'],
		},
	],
};
