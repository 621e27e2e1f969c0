// Every file is linted: the package with n8n's rule sets, applied the way n8n's own tooling
// (@n8n/node-cli) applies them; TypeScript with typescript-eslint; the JavaScript tools with
// ESLint's recommended rules. Inline disables are refused everywhere, as n8n's scanner does.
import js from '@eslint/js';
import tsParser from '@typescript-eslint/parser';
import { defineConfig } from 'eslint/config';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const legacy = (name) => ({
	plugins: { 'n8n-nodes-base': n8nNodesBase },
	rules: n8nNodesBase.configs[name].rules,
});

// package.json is parsed as a JSON expression, which both plugins' package rules expect.
const typescript = {
	languageOptions: {
		parser: tsParser,
		parserOptions: { sourceType: 'module', extraFileExtensions: ['.json'] },
	},
};

export default defineConfig([
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.scratch/**', '.n8n-local/**'] },
	{
		files: ['**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
	},
	{
		files: ['test/**/*.ts'],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
	},
	{
		files: ['**/*.js'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
	},
	{
		files: ['**/*.mjs'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'module', globals: globals.node },
	},
	{ files: ['package.json'], ...typescript, ...legacy('community') },
	{ files: ['credentials/**/*.ts'], ...typescript, ...legacy('credentials') },
	{ files: ['nodes/**/*.ts'], ...typescript, ...legacy('nodes') },
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['package.json', 'credentials/**/*.ts', 'nodes/**/*.ts'],
		...typescript,
	},
	{
		// These older rules predate the ones above and contradict them: n8n's community rules
		// require NodeConnectionTypes for inputs/outputs and a URL as documentationUrl.
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		rules: {
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		// The trigger and the action node share facts only through shared/ (and platform.ts, the
		// spec's facts), never each other's files; shared/ imports neither node.
		files: ['nodes/VideoPlatform/trigger/**/*.ts', 'nodes/VideoPlatform/VideoPlatformTrigger.node.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: ['**/actions', '**/actions/**', '**/transport', '**/transport/**', '**/VideoPlatform.node'] }] },
	},
	{
		files: ['nodes/VideoPlatform/actions/**/*.ts', 'nodes/VideoPlatform/transport/**/*.ts', 'nodes/VideoPlatform/VideoPlatform.node.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: ['**/trigger', '**/trigger/**', '**/VideoPlatformTrigger.node'] }] },
	},
	{
		files: ['nodes/VideoPlatform/shared/**/*.ts', 'nodes/VideoPlatform/platform.ts', 'credentials/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: ['**/actions', '**/actions/**', '**/transport', '**/transport/**', '**/trigger', '**/trigger/**', '**/*.node'] },
			],
		},
	},
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'error' } },
]);
