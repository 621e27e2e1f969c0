import { equivalentsIn, resultsMarkdown, shortfall, tally, unmatchedRows } from '../../../tools/mutation/results';

const DOCS = [
	'# Development',
	'',
	'| File | Mutant | Why |',
	'|---|---|---|',
	'| `elsewhere.ts` | `ConditionalExpression` `false` | a table of another section |',
	'',
	'## Mutation testing',
	'',
	'| File | Mutant | Why it cannot change behaviour |',
	'|---|---|---|',
	"| `nodes/a.ts` | `ConditionalExpression` `false` at 40:6-34, for `typeof provided !== 'string'` | the next check refuses it too |",
	'| `nodes/a.ts` | `LogicalOperator` `a \\|\\| b` | either side alone decides |',
	'',
].join('\n');

const at = (line: number, from: number, to: number) => ({ start: { line, column: from }, end: { line, column: to } });
const mutant = (status: string, mutatorName = 'ConditionalExpression', replacement = 'false', location = at(40, 6, 34)) => ({ status, mutatorName, replacement, location });

const REPORT = {
	files: {
		'nodes/b.ts': { mutants: [mutant('Killed'), mutant('NoCoverage')] },
		'nodes/a.ts': {
			mutants: [
				mutant('Killed'),
				mutant('Timeout'),
				mutant('Survived'),
				mutant('Survived', 'ConditionalExpression', 'false', at(40, 6, 51)),
				mutant('Survived', 'LogicalOperator', 'a || b'),
				mutant('Survived', 'StringLiteral', '""'),
				mutant('CompileError'),
				mutant('Ignored'),
			],
		},
	},
};

describe('the mutation results file', () => {
	it('reads the equivalents table of the "Mutation testing" section only, with escaped pipes', () => {
		expect(equivalentsIn(DOCS)).toEqual([
			{ file: 'nodes/a.ts', mutant: "`ConditionalExpression` `false` at 40:6-34, for `typeof provided !== 'string'`" },
			{ file: 'nodes/a.ts', mutant: '`LogicalOperator` `a || b`' },
		]);
	});

	it('counts a survivor the table names by file, mutator, replacement and place as equivalent, and leaves it out of the score', () => {
		const { files, total } = tally(REPORT, equivalentsIn(DOCS));
		expect(files.map(({ file }) => file)).toEqual(['nodes/a.ts', 'nodes/b.ts']);
		expect(files[0]).toEqual({
			file: 'nodes/a.ts',
			counts: { killed: 1, timeout: 1, survived: 2, equivalent: 2, noCoverage: 0, errors: 1, ignored: 1 },
			score: (100 * 2) / 4,
		});
		expect(files[1].score).toBe(50);
		expect(total).toEqual({ counts: { killed: 2, timeout: 1, survived: 2, equivalent: 2, noCoverage: 1, errors: 1, ignored: 1 }, score: 50 });
	});

	it('lists each survivor and each mutant no test reaches that the table does not name, as a row the table could take; one it names still counts as no coverage', () => {
		const markdown = resultsMarkdown(REPORT, equivalentsIn(DOCS), { command: 'npm run test:mutation', date: '2026-11-26 16:00 UTC', commit: 'abc1234', seconds: 150 });
		const open = markdown.split('## Not yet killed or explained')[1].split('\n').filter((line) => line.startsWith('| `'));
		expect(open).toEqual([
			'| `nodes/a.ts` | `ConditionalExpression` `false` at 40:6-51 | survived |',
			'| `nodes/a.ts` | `StringLiteral` `""` at 40:6-34 | survived |',
			'| `nodes/b.ts` | `ConditionalExpression` `false` at 40:6-34 | no test reaches it |',
		]);
		// Each row, given a reason, is one the table takes: a survivor, or code no input reaches, which
		// stays in the no-coverage column and in the score as not detected.
		const named = open.map((row) => row.replace(/\| [a-z ]+ \|$/, '| why |')).join('\n');
		const { total, open: left } = tally(REPORT, equivalentsIn(`${DOCS}${named}\n`));
		expect(left).toEqual([]);
		expect(total).toEqual({ counts: expect.objectContaining({ survived: 0, noCoverage: 1, equivalent: 4 }), score: 75 });
	});

	it('says so when every survivor is killed or explained', () => {
		const markdown = resultsMarkdown({ files: { 'nodes/a.ts': { mutants: [mutant('Killed'), mutant('Survived')] } } }, equivalentsIn(DOCS), {
			command: 'npm run test:mutation',
			date: '2026-11-26 16:00 UTC',
			commit: 'abc1234',
			seconds: 150,
		});
		expect(markdown).toContain('Every mutant that survived is killed or listed as equivalent.');
		expect(markdown).not.toContain('Not yet killed');
	});

	it('rounds a score down, so that one survivor among thousands never reads as 100.0 %', () => {
		const report = { files: { 'nodes/a.ts': { mutants: [...Array.from({ length: 2069 }, () => mutant('Killed')), mutant('Survived', 'StringLiteral', '""')] } } };
		const markdown = resultsMarkdown(report, [], { command: 'npm run test:mutation', date: '2026-11-30 04:00 UTC', commit: 'abc1234', seconds: 60 });
		expect(markdown).toContain('- Score: **99.9 %**');
		expect(markdown).toContain('| `nodes/a.ts` | 2069 | 1 | 0 | 0 | 0 | 0 | 0 | 99.9 % |');
	});

	it('has no score for a file with no tested mutant', () => {
		expect(tally({ files: { 'x.ts': { mutants: [mutant('Ignored')] } } }, []).total.score).toBeNull();
	});

	it('writes the score, the time, the date, the commit and a row per file', () => {
		const markdown = resultsMarkdown(REPORT, equivalentsIn(DOCS), { command: 'npm run test:mutation', date: '2026-11-26 16:00 UTC', commit: 'abc1234', seconds: 150 });
		expect(markdown).toContain('- Run: `npm run test:mutation`, 2026-11-26 16:00 UTC, the code and tests of commit abc1234 (the results are committed after it)');
		expect(markdown).toContain('- Time (2 shared cores): 3 min for 9 mutants tested or reused');
		expect(markdown).toContain('- Score: **50.0 %**');
		expect(markdown).toContain('| `nodes/a.ts` | 1 | 2 | 2 | 0 | 1 | 1 | 1 | 50.0 % |');
		expect(markdown).toContain('| **all** | 2 | 2 | 2 | 1 | 1 | 1 | 1 | 50.0 % |');
	});

	it("says when the table adds earlier runs' results to a partial run's (`--save`), and times only that run", () => {
		const markdown = resultsMarkdown(REPORT, [], { command: 'npm run test:mutation -- --mutate nodes/a.ts --save', date: '2026-11-27 09:00 UTC', commit: 'abc1234', seconds: 600, merged: true });
		expect(markdown).toContain("- Time (2 shared cores): 10 min for this run's files; the table adds the results earlier runs kept for the other files");
		expect(markdown).not.toContain('mutants tested or reused');
	});

	it('names each file a stopped run left part-way (`--save-progress`), with how many of its mutants have results', () => {
		const unfinished = [{ file: 'nodes/a.ts', tested: 5, planned: 9 }];
		const markdown = resultsMarkdown(REPORT, [], { command: 'npm run test:mutation -- --save-progress', date: '2026-11-27 16:30 UTC', commit: 'abc1234', seconds: 0, merged: true, stopped: true, unfinished });
		expect(markdown).toContain('- Stopped part-way: `nodes/a.ts` has results for 5 of its 9 mutants; the next run of it tests the rest');
		expect(markdown).toContain('- Run: `npm run test:mutation -- --save-progress`, 2026-11-27 16:30 UTC, at commit abc1234: the results a run stopped part-way had, on the code and tests as they were when it started');
		expect(markdown).toContain('- Time: not measured: the results of a run stopped part-way, kept with `--save-progress`');
		expect(markdown).toContain('- Score: **37.5 %** over the mutants with results only: 4 mutants have none yet');
		expect(markdown).toContain('| `nodes/a.ts` (part-way: 5 of 9) | 1 | 4 | 0 | 0 | 1 | 1 | 1 | 33.3 % |');
		expect(markdown).toContain('| `nodes/b.ts` | 1 |');
	});

	it('says of a run stopped part-way that every survivor among the mutants with results is killed or listed, not every one', () => {
		const killedOnly = { files: { 'nodes/a.ts': { mutants: [mutant('Killed')] } } };
		const run = { command: 'npm run test:mutation', date: '2026-11-27 16:30 UTC', commit: 'abc1234', seconds: 0 };
		expect(resultsMarkdown(killedOnly, [], { ...run, unfinished: [{ file: 'nodes/a.ts', tested: 1, planned: 3 }] })).toContain(
			'Among the mutants with results, every mutant that survived is killed or listed as equivalent.',
		);
		expect(resultsMarkdown(killedOnly, [], run)).toContain('\nEvery mutant that survived is killed or listed as equivalent.');
	});

	it('names a file an earlier saved run left part-way in the results of a later run that finished, without calling that run stopped', () => {
		const run = { command: 'npm run test:mutation -- --changed --save', date: '2026-11-29 13:05 UTC', commit: 'abc1234', seconds: 600, merged: true };
		const markdown = resultsMarkdown(REPORT, [], { ...run, unfinished: [{ file: 'nodes/a.ts', tested: 5, planned: 9 }] });
		expect(markdown).toContain('- Stopped part-way: `nodes/a.ts` has results for 5 of its 9 mutants; the next run of it tests the rest');
		expect(markdown).toContain("- Time (2 shared cores): 10 min for this run's files");
		expect(markdown).not.toContain('the results a run stopped part-way had');
	});
});

describe('equivalents rows that name no survivor', () => {
	const rows = equivalentsIn(DOCS);
	const killedNow = { files: { 'nodes/a.ts': { mutants: [mutant('Killed'), mutant('Survived', 'LogicalOperator', 'a || b')] } } };

	it('are the rows whose mutant a test kills now or whose place moved, and the results file lists them to be removed or placed again', () => {
		expect(unmatchedRows(killedNow, rows, new Set())).toEqual([rows[0]]);
		const moved = { files: { 'nodes/a.ts': { mutants: [mutant('Survived', 'ConditionalExpression', 'false', at(41, 6, 34)), mutant('NoCoverage', 'LogicalOperator', 'a || b')] } } };
		expect(unmatchedRows(moved, rows, new Set())).toEqual([rows[0]]);
		const markdown = resultsMarkdown(killedNow, rows, { date: 'd', commit: 'c', command: 'npm run test:mutation', seconds: 60 });
		expect(markdown.split('## Equivalents rows that name no survivor')[1]).toContain("| `nodes/a.ts` | `ConditionalExpression` `false` at 40:6-34, for `typeof provided !== 'string'` | killed |");
	});

	it('say what became of each mutant: killed, timed out (the row stays: a quicker run can see it survive), or not found where the row places it', () => {
		const section = (report: typeof killedNow) =>
			resultsMarkdown(report, rows, { date: 'd', commit: 'c', command: 'npm run test:mutation', seconds: 60 }).split('## Equivalents rows that name no survivor')[1];
		const timedOut = { files: { 'nodes/a.ts': { mutants: [mutant('Timeout'), mutant('Survived', 'LogicalOperator', 'a || b')] } } };
		expect(section(timedOut)).toContain("for `typeof provided !== 'string'` | timed out |");
		expect(section(timedOut)).toContain('Timed out: counted as detected, but a static mutant that only slows the tests survives on a quicker run, so its row stays.');
		const moved = { files: { 'nodes/a.ts': { mutants: [mutant('Survived', 'ConditionalExpression', 'false', at(41, 6, 34)), mutant('Survived', 'LogicalOperator', 'a || b')] } } };
		expect(section(moved)).toContain("for `typeof provided !== 'string'` | not found |");
	});

	it('leave out the rows of a file still without some of its results, and the section when every row names a survivor', () => {
		expect(unmatchedRows(killedNow, rows, new Set(['nodes/a.ts']))).toEqual([]);
		const markdown = resultsMarkdown(REPORT, rows, { date: 'd', commit: 'c', command: 'npm run test:mutation', seconds: 60 });
		expect(markdown).not.toContain('name no survivor');
	});
});

describe("the mutation run's verdict", () => {
	it('fails a run with a survivor the table does not list, naming how many', () => {
		expect(shortfall(REPORT, equivalentsIn(DOCS))).toBe(
			'3 mutants survived that no test kills and the equivalents table does not list (mutation/results.md, "Not yet killed or explained")',
		);
		const one = { files: { 'nodes/a.ts': { mutants: [mutant('Killed'), mutant('Survived', 'StringLiteral', '""')] } } };
		expect(shortfall(one, [])).toMatch(/^1 mutant survived that/);
	});

	it('passes a run whose every survivor, and every mutant no test reaches, is listed', () => {
		const listed = { files: { 'nodes/a.ts': { mutants: [mutant('Killed'), mutant('Timeout'), mutant('Survived'), mutant('NoCoverage', 'StringLiteral', '"x"'), mutant('CompileError')] } } };
		expect(shortfall(listed, [{ file: 'nodes/a.ts', mutant: '`ConditionalExpression` `false` at 40:6-34' }, { file: 'nodes/a.ts', mutant: '`StringLiteral` `"x"`' }])).toBeUndefined();
		expect(shortfall(listed, [{ file: 'nodes/a.ts', mutant: '`StringLiteral` `"x"`' }])).toMatch(/^1 mutant survived/);
	});
});
