'use strict';
// Which guarantee files a partial mutation run (`--changed`) must test: those whose text is not the
// text the incremental file last tested. Compared by content, not by commit, so that committing the
// incremental file after a partial run hides no other changed file.

/**
 * @param {string[]} files  the guarantee files, relative to the repository
 * @param {{ files?: Record<string, { source?: string }> } | undefined} incremental  mutation/incremental.json, parsed (undefined: none yet)
 * @param {(file: string) => string} read  a file's text now
 * @returns {string[]}
 */
function untestedFiles(files, incremental, read) {
	const tested = new Map(Object.entries(incremental?.files ?? {}));
	return files.filter((file) => tested.get(file)?.source !== read(file));
}

module.exports = { untestedFiles };
