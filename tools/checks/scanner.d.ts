// The part of n8n's community package scanner that scan-package.mjs uses (the package ships no types).
declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
	import type { Linter } from 'eslint';

	export const SOURCE_FILE_PATTERNS: string[];
	export function buildScanConfig(): Promise<Linter.Config[]>;
	export function analyzePackage(
		packageDir: string,
		filePatterns?: string[],
	): Promise<{ passed: boolean; message?: string; details?: string; error?: unknown }>;
}
