'use strict';
// Turns Stryker's JSON report into mutation/results.md: per file killed, survived, equivalent (the
// table in docs/development.md, "Mutation testing"), no coverage; the score, the run's time, date, commit.

/**
 * @typedef {{ line: number, column: number }} Position
 * @typedef {{ mutatorName: string, replacement?: string, status: string, location: { start: Position, end: Position } }} Mutant
 * @typedef {{ files: Record<string, { mutants: Mutant[] }> }} Report
 * @typedef {{ file: string, mutant: string }} Equivalent
 */

/** The rows of the equivalents table under "## Mutation testing": file, mutant (its mutator and `replacement`), why. */
function equivalentsIn(/** @type {string} */ markdown) {
	const section = markdown.split(/^## Mutation testing$/m)[1] ?? '';
	/** @type {Equivalent[]} */
	const rows = [];
	for (const line of section.split('\n')) {
		const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim().replace(/\\\|/g, '|'));
		if (cells.length !== 3 || cells[0] === 'File' || /^-+$/.test(cells[0])) continue;
		rows.push({ file: cells[0].replace(/^`|`$/g, ''), mutant: cells[1] });
	}
	return rows;
}

/**
 * Whether a table row names this surviving mutant: its file, its mutator, its replacement in
 * backticks and, where the row gives it as `at line:column-column`, where it starts and ends.
 */
function names(/** @type {Equivalent} */ row, /** @type {string} */ file, /** @type {Mutant} */ mutant) {
	const at = /\bat (\d+):(\d+)-(\d+)\b/.exec(row.mutant);
	const { start, end } = mutant.location;
	const placed = !at || (Number(at[1]) === start.line && Number(at[2]) === start.column && Number(at[3]) === end.column);
	return row.file === file && placed && row.mutant.includes(`\`${mutant.mutatorName}\``) && row.mutant.includes(`\`${mutant.replacement ?? ''}\``);
}

/**
 * The table's rows that name no surviving or unreached mutant of a file with all its results: a row
 * whose mutant a test now kills, or whose place moved with an edit. Such a row explains nothing
 * and would hide a survivor that later lands on its place.
 * @param {Report} report
 * @param {Equivalent[]} equivalents
 * @param {Set<string>} partWay  files still without some of their results: their rows may name a mutant not yet run
 */
function unmatchedRows(report, equivalents, partWay) {
	const open = (/** @type {Mutant} */ { status }) => status === 'Survived' || status === 'NoCoverage';
	return equivalents.filter(
		(row) => !partWay.has(row.file) && !Object.entries(report.files).some(([file, { mutants }]) => mutants.some((mutant) => open(mutant) && names(row, file, mutant))),
	);
}

/** What the results say now of the mutant an equivalents row names, in the words of the results file. */
function statusNow(/** @type {Report} */ report, /** @type {Equivalent} */ row) {
	const found = (report.files[row.file]?.mutants ?? []).find((mutant) => names(row, row.file, mutant));
	return found ? ({ Killed: 'killed', Timeout: 'timed out' }[found.status] ?? found.status) : 'not found';
}

const COLUMNS = ['killed', 'survived', 'equivalent', 'noCoverage', 'timeout', 'errors', 'ignored'];

/** Counts per file and in all, and the score: (killed + timeout) / every tested mutant that is not equivalent (a listed survivor). */
function tally(/** @type {Report} */ report, /** @type {Equivalent[]} */ equivalents) {
	const count = () => Object.fromEntries(COLUMNS.map((column) => [column, 0]));
	const total = count();
	/** @type {string[]} */
	const open = [];
	const files = Object.entries(report.files)
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([file, { mutants }]) => {
			const row = count();
			for (const mutant of mutants) {
				const explained = equivalents.some((equivalent) => names(equivalent, file, mutant));
				const column = {
					Killed: 'killed',
					Timeout: 'timeout',
					// Counted as not detected even where the table says why no input reaches its code.
					NoCoverage: 'noCoverage',
					Ignored: 'ignored',
					Survived: explained ? 'equivalent' : 'survived',
				}[mutant.status] ?? 'errors';
				row[column]++;
				total[column]++;
				if ((column === 'survived' || column === 'noCoverage') && !explained) open.push(placeOf(file, mutant));
			}
			return { file, counts: row, score: scoreOf(row) };
		});
	return { files, total: { counts: total, score: scoreOf(total) }, open };
}

/** A mutant as the equivalents table names it, so that a row can be made from it. */
function placeOf(/** @type {string} */ file, /** @type {Mutant} */ { mutatorName, replacement, location: { start, end }, status }) {
	const shown = (replacement ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|');
	return `| \`${file}\` | \`${mutatorName}\` \`${shown}\` at ${start.line}:${start.column}-${end.column} | ${status === 'NoCoverage' ? 'no test reaches it' : 'survived'} |`;
}

function scoreOf(/** @type {Record<string, number>} */ row) {
	const detected = row.killed + row.timeout;
	const valid = detected + row.survived + row.noCoverage;
	return valid === 0 ? null : (100 * detected) / valid;
}

const tested = (/** @type {Record<string, number>} */ counts) => COLUMNS.filter((column) => column !== 'ignored').reduce((sum, column) => sum + counts[column], 0);
/** Rounded down: a score with a survivor left never reads as 100.0 %. */
const percent = (/** @type {number | null} */ score) => (score === null ? '–' : `${(Math.floor(score * 10) / 10).toFixed(1)} %`);

/** The results file's text. */
function resultsMarkdown(/** @type {Report} */ report, /** @type {Equivalent[]} */ equivalents, /** @type {{ date: string, commit: string, command: string, seconds: number, merged?: boolean, stopped?: boolean, unfinished?: { file: string, tested: number, planned: number }[] }} */ run) {
	const { files, total, open } = tally(report, equivalents);
	const unmatched = unmatchedRows(report, equivalents, new Set((run.unfinished ?? []).map(({ file }) => file)));
	const untested = (run.unfinished ?? []).reduce((sum, { tested: done, planned }) => sum + planned - done, 0);
	const partWay = new Map((run.unfinished ?? []).map(({ file, tested: done, planned }) => [file, ` (part-way: ${done} of ${planned})`]));
	const row = (/** @type {string} */ name, /** @type {{ counts: Record<string, number>, score: number | null }} */ { counts, score }) =>
		`| ${name} | ${COLUMNS.map((column) => counts[column]).join(' | ')} | ${percent(score)} |`;
	return [
		'# Mutation testing results',
		'',
		'Written by `npm run test:mutation` (tools/mutation/run.js; docs/development.md, "Mutation testing").',
		'Score: killed and timed-out mutants over every tested mutant but the equivalent ones (survivors the table in',
		'docs/development.md lists); no coverage: mutants no test reaches, not detected even where the table says why',
		'no input reaches their code. Ignored: mutants left',
		'out of a run (static ones were, until the runs tested them through their file\'s own test file: such a file',
		'is tested again by the next `--changed` run). Errors: mutants that do not compile, or that Stryker could not run.',
		'',
		run.stopped
			? `- Run: \`${run.command}\`, ${run.date}, at commit ${run.commit}: the results a run stopped part-way had, on the code and tests as they were when it started (mutation/incremental.json keeps their text)`
			: `- Run: \`${run.command}\`, ${run.date}, the code and tests of commit ${run.commit} (the results are committed after it)`,
		run.stopped
			? "- Time: not measured: the results of a run stopped part-way, kept with `--save-progress`"
			: run.merged
			? `- Time (2 shared cores): ${Math.round(run.seconds / 60)} min for this run's files; the table adds the results earlier runs kept for the other files`
			: `- Time (2 shared cores): ${Math.round(run.seconds / 60)} min for ${tested(total.counts)} mutants tested or reused`,
		...(run.unfinished ?? []).map(
			({ file, tested: done, planned }) => `- Stopped part-way: \`${file}\` has results for ${done} of its ${planned} mutants; the next run of it tests the rest`,
		),
		untested
			? `- Score: **${percent(total.score)}** over the mutants with results only: ${untested} mutants have none yet`
			: `- Score: **${percent(total.score)}**`,
		'',
		`| File | ${COLUMNS.map((column) => (column === 'noCoverage' ? 'no coverage' : column)).join(' | ')} | score |`,
		`|---|${COLUMNS.map(() => '---:').join('|')}|---:|`,
		...files.map((entry) => row(`\`${entry.file}\`${partWay.get(entry.file) ?? ''}`, entry)),
		row('**all**', total),
		'',
		...(open.length === 0
			? [`${untested ? 'Among the mutants with results, every' : 'Every'} mutant that survived is killed or listed as equivalent.`, '']
			: [
					'## Not yet killed or explained',
					'',
					'Each wants a test that kills it, or a row in the equivalents table of docs/development.md.',
					'',
					'| File | Mutant | Status |',
					'|---|---|---|',
					...open,
					'',
			  ]),
		...(unmatched.length === 0
			? []
			: [
					'## Equivalents rows that name no survivor',
					'',
					'Killed: a test kills the mutant now, remove the row. Not found: an edit moved it, give the row its new place.',
					'Timed out: counted as detected, but a static mutant that only slows the tests survives on a quicker run, so its row stays.',
					'',
					'| File | Mutant | Now |',
					'|---|---|---|',
					...unmatched.map((row) => `| \`${row.file}\` | ${row.mutant.replace(/\|/g, '\\|')} | ${statusNow(report, row)} |`),
					'',
			  ]),
	].join('\n');
}

/**
 * Why a run fails the project's bar, or undefined when it passes: every survivor killed or listed
 * as equivalent. That bar is stricter than the 90 % score issue 45 asks for: a run that meets it
 * scores 100 % over the mutants that are not equivalent.
 * @param {Report} report
 * @param {Equivalent[]} equivalents
 */
function shortfall(report, equivalents) {
	const { open } = tally(report, equivalents);
	if (open.length === 0) return undefined;
	return `${open.length} mutant${open.length === 1 ? '' : 's'} survived that no test kills and the equivalents table does not list (mutation/results.md, "Not yet killed or explained")`;
}

module.exports = { equivalentsIn, resultsMarkdown, shortfall, tally, unmatchedRows };
