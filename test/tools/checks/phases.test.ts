import { phaseRows, phaseTable } from '../../../tools/checks/phases';

const file = (name: string, startTime: number, endTime: number) => ({ name: `/repo/test/${name}`, startTime, endTime });

describe('where a test run took its time', () => {
	it('lists the recorded phases in order, each jest project from its first start to its last end, and each end-to-end file slowest first', () => {
		const rows = phaseRows(
			[{ name: 'npm ci', seconds: 61 }, { name: 'lint', seconds: 30 }],
			{
				testResults: [
					file('nodes/a.test.ts', 0, 4_000),
					file('tools/b.test.ts', 1_000, 9_000),
					file('workflows/c.test.ts', 9_000, 12_000),
					file('e2e/start.e2e.test.ts', 12_000, 400_000),
					file('e2e/trigger.e2e.test.ts', 400_000, 1_000_000),
				],
			},
		);
		expect(rows).toEqual([
			['npm ci', 61],
			['lint', 30],
			['jest unit', 9],
			['jest workflows', 3],
			['jest e2e', 988],
			['  trigger.e2e.test.ts', 600],
			['  start.e2e.test.ts', 388],
		]);
		expect(phaseTable(rows).split('\n')[4]).toMatch(/^jest e2e\s+988 s$/);
	});

	it('lists the phases alone when jest wrote no results', () => {
		expect(phaseRows([{ name: 'lint', seconds: 12 }], {})).toEqual([['lint', 12]]);
	});

	it('shows each kind of tallied step once, after the files, with its count and its seconds summed, most seconds first', () => {
		const rows = phaseRows(
			[
				{ name: 'lint', seconds: 12 },
				{ name: 'n8n CLI execute, each a cold start', seconds: 4.6, tally: true },
				{ name: 'n8n start, until ready', seconds: 9.2, tally: true },
				{ name: 'n8n CLI execute, each a cold start', seconds: 5.3, tally: true },
				{ name: 'n8n CLI execute, each a cold start', seconds: 4.4, tally: true },
			],
			{ testResults: [file('e2e/a.e2e.test.ts', 0, 30_000)] },
		);
		expect(rows).toEqual([
			['lint', 12],
			['jest e2e', 30],
			['  a.e2e.test.ts', 30],
			['n8n CLI execute, each a cold start (×3)', 14],
			['n8n start, until ready (×1)', 9],
		]);
	});
});
