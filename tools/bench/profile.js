'use strict';
// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: self time by function
// and by package, so that a benchmark's miss is traced to code, not guessed.

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[], startTime: number }} CpuProfile
 */

/**
 * The same profile with only the samples taken within the windows, so that two runs in one
 * process can be told apart.
 * @param {CpuProfile} profile
 * @param {[number, number][]} windows  [from, to] in the profile's clock (µs)
 * @returns {CpuProfile}
 */
function withinWindows(profile, windows) {
	/** @type {number[]} */
	const samples = [];
	/** @type {number[]} */
	const timeDeltas = [];
	let at = profile.startTime;
	profile.samples.forEach((id, i) => {
		at += profile.timeDeltas[i] ?? 0;
		if (windows.some(([from, to]) => at >= from && at <= to)) {
			samples.push(id);
			timeDeltas.push(profile.timeDeltas[i] ?? 0);
		}
	});
	return { ...profile, samples, timeDeltas };
}

/** The package a script belongs to: the part after the last node_modules/, or the file. */
function packageOf(/** @type {string} */ url) {
	const parts = url.split('node_modules/');
	if (parts.length < 2) return url === '' ? '(native or idle)' : url.replace(/^.*\//, '');
	const rest = parts[parts.length - 1].split('/');
	return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

/**
 * Self time (µs) of each sampled node, function and package.
 * @param {CpuProfile} profile
 */
function selfTimes(profile) {
	/** @type {Map<number, ProfileNode>} */
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	/** @type {Map<number, number>} */
	const selfUs = new Map();
	profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
	/** @type {Map<string, number>} */
	const byFunction = new Map();
	/** @type {Map<string, number>} */
	const byPackage = new Map();
	let total = 0;
	let idle = 0;
	for (const [id, us] of selfUs) {
		const { functionName, url, lineNumber } = /** @type {ProfileNode} */ (byId.get(id)).callFrame;
		total += us;
		if (functionName === '(idle)') idle += us;
		const name = `${functionName || '(anonymous)'} ${packageOf(url)}:${lineNumber + 1}`;
		byFunction.set(name, (byFunction.get(name) ?? 0) + us);
		byPackage.set(packageOf(url), (byPackage.get(packageOf(url)) ?? 0) + us);
	}
	return { byId, selfUs, byFunction, byPackage, total, idle };
}

/**
 * Where one profile spent more self time than another: by package and by function, largest first.
 * @param {CpuProfile} subject
 * @param {CpuProfile} base
 * @param {number} [top]
 */
function compareProfiles(subject, base, top = 30) {
	const [a, b] = [selfTimes(subject), selfTimes(base)];
	const diff = (/** @type {Map<string, number>} */ x, /** @type {Map<string, number>} */ y) =>
		[...new Set([...x.keys(), ...y.keys()])]
			.filter((name) => !name.startsWith('(idle)'))
			.map((name) => /** @type {[string, number]} */ ([name, (x.get(name) ?? 0) - (y.get(name) ?? 0)]))
			.sort((m, n) => Math.abs(n[1]) - Math.abs(m[1]))
			.slice(0, top)
			.map(([name, us]) => `${(us / 1000).toFixed(0).padStart(8)} ms  ${name}`);
	return [
		`Busy ${((a.total - a.idle) / 1000).toFixed(0)} ms against ${((b.total - b.idle) / 1000).toFixed(0)} ms.`,
		'Self time, difference by package:',
		...diff(a.byPackage, b.byPackage),
		'Self time, difference by function:',
		...diff(a.byFunction, b.byFunction),
	].join('\n');
}

/**
 * @param {CpuProfile} profile
 * @param {string[]} [focus]  function names whose inclusive time is shown
 * @param {number} [top]
 * @returns {string}
 */
function summarizeProfile(profile, focus = [], top = 25) {
	const { byId, selfUs, byFunction, byPackage, total, idle } = selfTimes(profile);
	const busy = total - idle;
	// Inclusive time of the functions asked for (a recursive call counted once, at its outermost).
	/** @type {Map<string, number>} */
	const inclusive = new Map();
	/** @returns {number} */
	const walk = (/** @type {number} */ id, /** @type {Set<string>} */ open) => {
		const node = /** @type {ProfileNode} */ (byId.get(id));
		const name = node.callFrame.functionName;
		const counted = focus.includes(name) && !open.has(name);
		const inner = counted ? new Set([...open, name]) : open;
		const us = (selfUs.get(id) ?? 0) + (node.children ?? []).reduce((sum, child) => sum + walk(child, inner), 0);
		if (counted) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
		return us;
	};
	walk(profile.nodes[0].id, new Set());
	const lines = (/** @type {Map<string, number>} */ map) =>
		[...map].filter(([name]) => !name.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, top)
			.map(([name, us]) => `${(us / 1000).toFixed(0).padStart(8)} ms ${((us / busy) * 100).toFixed(1).padStart(5)} %  ${name}`);
	return [
		`Busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled.`,
		'Self time by package:',
		...lines(byPackage),
		'Self time by function:',
		...lines(byFunction),
		'Inclusive time of:',
		...lines(inclusive),
	].join('\n');
}

module.exports = { summarizeProfile, compareProfiles, withinWindows };
