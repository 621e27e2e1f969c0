// The project's rules on top of n8n's default config (`npm run lint` runs this after `n8n-node lint`;
// strict mode needs the root eslint.config.mjs to be n8n's own, so these live here):
// - the trigger and the action node share facts only through shared/ (and platform.ts, the spec's
//   facts), never each other's files; shared/, platform.ts and credentials/ import neither node;
// - a node's file, which holds its whole description, reaches the code that runs it only through
//   its entries (the router and the operations' registry; the trigger's webhook handler and secret
//   check): a newcomer reads the description alone, its values coming from the operation files,
//   shared/ and trigger/choices.ts. (A later block's patterns replace an earlier one's for its
//   files, so each node file's block repeats the other node's.)
// - inline disables are refused, as n8n's scanner ignores them;
// - the root's JavaScript files (gulpfile, index, jest config) get ESLint's recommended rules.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * @param {string[]} patterns
 * @returns {import('eslint').Linter.RulesRecord}
 */
const forbid = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const actionSide = ['**/actions', '**/actions/**', '**/transport', '**/transport/**'];
const triggerSide = ['**/trigger', '**/trigger/**'];

export default defineConfig([
	{ files: ['nodes/**/*.ts', 'credentials/**/*.ts'], languageOptions: { parser: tseslint.parser } },
	{
		files: ['nodes/VideoPlatform/trigger/**/*.ts', 'nodes/VideoPlatform/VideoPlatformTrigger.node.ts'],
		rules: forbid(...actionSide, '**/VideoPlatform.node'),
	},
	{
		files: ['nodes/VideoPlatform/actions/**/*.ts', 'nodes/VideoPlatform/transport/**/*.ts', 'nodes/VideoPlatform/VideoPlatform.node.ts'],
		rules: forbid(...triggerSide, '**/VideoPlatformTrigger.node'),
	},
	{
		files: ['nodes/VideoPlatform/VideoPlatform.node.ts'],
		rules: forbid(...triggerSide, '**/VideoPlatformTrigger.node', '**/transport', '**/transport/**', './actions/**', '!./actions/router', '!./actions/resources'),
	},
	{
		files: ['nodes/VideoPlatform/VideoPlatformTrigger.node.ts'],
		rules: forbid(...actionSide, '**/VideoPlatform.node', './trigger/*', '!./trigger/choices', '!./trigger/secret', '!./trigger/webhook'),
	},
	{
		files: ['nodes/VideoPlatform/shared/**/*.ts', 'nodes/VideoPlatform/platform.ts', 'credentials/**/*.ts'],
		rules: forbid(...actionSide, ...triggerSide, '**/*.node'),
	},
	{ files: ['*.js'], extends: [js.configs.recommended], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
	{ files: ['*.mjs'], extends: [js.configs.recommended], languageOptions: { sourceType: 'module', globals: globals.node } },
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'error' } },
]);
