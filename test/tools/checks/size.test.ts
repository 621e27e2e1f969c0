import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { codeLines, importCircles, productSize, sourceFiles } from '../../../tools/checks/size';

function product(files: Record<string, string>): string {
	const root = mkdtempSync(path.join(tmpdir(), 'size-'));
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
		writeFileSync(path.join(root, name), text);
	}
	return root;
}

describe("the product's size", () => {
	it('counts lines that hold code, not comments or blank lines, and a long line once per started 100 characters', () => {
		const text = ['// a comment', '/** a doc', ' * comment */', '', 'const a = 1;', `const b = '${'x'.repeat(150)}';`, '/* x */'].join('\n');
		expect(codeLines(text)).toBe(1 + 2);
	});

	it("reads a template's text after ${…} as text, not code", () => {
		const text = ['const t = `${1}', '// not a comment, not code either', '`;'].join('\n');
		expect(codeLines(text)).toBe(3);
		expect(codeLines('const t = `\n\n`;')).toBe(3);
	});

	it('finds each import circle once, type-only imports included, and none where imports only go one way', () => {
		const root = product({
			'nodes/a.ts': "import type { B } from './b';\nexport type A = B;",
			'nodes/b.ts': "import { c } from './sub';\nexport type B = number; export const b = c;",
			'nodes/sub/index.ts': "export type { A } from '../a';\nexport const c = 1;",
			'nodes/d.ts': "import { b } from './b';\nexport const d = b;",
		});
		const circles = importCircles(sourceFiles(path.join(root, 'nodes')));
		expect(circles.map((circle) => circle.map((file) => path.relative(root, file)))).toEqual([
			['nodes/a.ts', 'nodes/b.ts', path.join('nodes', 'sub', 'index.ts'), 'nodes/a.ts'],
		]);
		expect(importCircles(sourceFiles(path.join(product({ 'nodes/a.ts': "import './b';", 'nodes/b.ts': 'export {};' }), 'nodes')))).toEqual([]);
	});

	it('sums code lines and files of nodes/ and credentials/, and counts the transport files', () => {
		const root = product({
			'nodes/VideoPlatform/transport/client.ts': 'export const a = 1;\n// why\n',
			'nodes/VideoPlatform/x.ts': "import { a } from './transport/client';\nexport const b = a;",
			'credentials/C.credentials.ts': 'export class C {}',
			'test/ignored.ts': 'const x = 1;',
		});
		expect(productSize(root)).toEqual({
			codeLines: 4,
			files: 3,
			perFile: { 'credentials/C.credentials.ts': 1, 'nodes/VideoPlatform/transport/client.ts': 1, 'nodes/VideoPlatform/x.ts': 2 },
			transportFiles: 1,
			importCircles: [],
		});
	});
});
