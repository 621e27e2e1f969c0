#!/usr/bin/env node
// Runs n8n's community package scanner on a folder the way n8n runs it (inline eslint-disable
// comments ignored), and also reports warnings, which the scanner itself does not print.
// Usage: node tools/checks/scan-package.mjs <folder> <source|tarball>   (prints JSON)
import { parseArgs } from 'node:util';
import { ESLint } from 'eslint';
import glob from 'fast-glob';
import {
	analyzePackage,
	buildScanConfig,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const [folder, kind] = parseArgs({ args: process.argv.slice(2), allowPositionals: true }).positionals;
if (!folder || !['source', 'tarball'].includes(kind)) {
	process.stderr.write('Usage: node tools/checks/scan-package.mjs <folder> <source|tarball>\n');
	process.exit(2);
}
// The same file sets n8n's scanner lints for a source checkout and for the published tarball.
const patterns = kind === 'source' ? SOURCE_FILE_PATTERNS : ['**/*.js', 'package.json'];

const verdict = await analyzePackage(folder, patterns);
const eslint = new ESLint({ cwd: folder, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await buildScanConfig() });
const files = glob.sync(patterns, { cwd: folder, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
const results = await eslint.lintFiles(files);
const messages = results.flatMap((result) =>
	result.messages.map((m) => ({ file: result.filePath.slice(folder.length + 1), rule: m.ruleId, severity: m.severity, message: m.message })),
);
process.stdout.write(
	JSON.stringify({
		passed: verdict.passed,
		details: verdict.details,
		filesLinted: files.length,
		errors: messages.filter((m) => m.severity === 2),
		warnings: messages.filter((m) => m.severity === 1),
	}),
);
