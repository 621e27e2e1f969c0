// The lab's own rules (found through the unstable_config_lookup_from_file flag that `npm run lint`
// sets; docs/development.md, "Lint"): Node scripts in CommonJS, a few ES modules, one declaration.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// typescript-eslint needs the folder spelled out once more than one config file exists.
const parserOptions = { tsconfigRootDir: import.meta.dirname };

export default defineConfig([
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
	{ files: ['**/*.ts'], extends: [js.configs.recommended, tseslint.configs.recommended], languageOptions: { parserOptions } },
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'error' } },
]);
