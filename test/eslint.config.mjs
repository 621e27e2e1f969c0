// The tests' own rules (ESLint finds this file through the unstable_config_lookup_from_file flag
// that `npm run lint` sets; docs/development.md, "Lint"). n8n's node rules at the root forbid what
// tests must do (files, process, timers, sample keys), so tests get TypeScript's and ESLint's rules.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// typescript-eslint needs the folder spelled out once more than one config file exists.
const parserOptions = { tsconfigRootDir: import.meta.dirname };

export default defineConfig([
	{
		files: ['**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: { parserOptions, globals: { ...globals.node, ...globals.jest } },
		// Jest's matchers are extended only through its global `jest` namespace.
		rules: { '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }] },
	},
	{
		files: ['**/*.js'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
	},
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'error' } },
]);
