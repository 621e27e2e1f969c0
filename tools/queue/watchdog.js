'use strict';
// A small process that outlives a crash of the one that started services: it watches its parent
// and, once the parent is gone, stops every process listed in a registry file (one "<pid> group"
// or "<pid> single" a line), SIGTERM first and SIGKILL 15 s later. It leaves as soon as the
// registry file is removed, which is what a normal stop does.
//
//   node watchdog.js <parent pid> <registry file>
// Required by the tooling, it gives `startWatchdog()` and `Registry` instead.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { parseArgs } = require('node:util');
const { isAlive: alive } = require('../install/steps');

const TICK_MS = 1000;
const KILL_AFTER_MS = 15_000;

/** @typedef {{ pid: number, group: boolean }} Entry  a process, or a process group */

/**
 * @param {Entry} entry
 * @param {NodeJS.Signals} name
 */
function signal(entry, name) {
	try {
		process.kill(entry.group ? -entry.pid : entry.pid, name);
	} catch {
		// already gone
	}
}

/**
 * @param {string} file
 * @returns {Entry[]}
 */
function readRegistry(file) {
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.map((line) => line.trim().split(/\s+/))
		.filter(([pid]) => Number(pid) > 0)
		.map(([pid, kind]) => ({ pid: Number(pid), group: kind === 'group' }));
}

/**
 * @param {number} parentPid
 * @param {string} file
 */
function watch(parentPid, file) {
	const timer = setInterval(() => {
		if (!fs.existsSync(file)) process.exit(0);
		if (alive(parentPid)) return;
		clearInterval(timer);
		const entries = readRegistry(file);
		for (const entry of entries) signal(entry, 'SIGTERM');
		const deadline = Date.now() + KILL_AFTER_MS;
		setInterval(() => {
			const left = entries.filter((entry) => alive(entry.pid));
			if (left.length && Date.now() < deadline) return;
			for (const entry of left) signal(entry, 'SIGKILL');
			fs.rmSync(file, { force: true });
			process.exit(0);
		}, 200);
	}, TICK_MS);
}

/** The list of processes a watchdog guards; `add` and `remove` keep it current. */
class Registry {
	/** @param {string} file */
	constructor(file) {
		this.file = file;
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, '');
		/** @type {Entry[]} */
		this.entries = [];
		/** @type {number | undefined} */
		this.watchdogPid = undefined;
	}

	/**
	 * @param {number} pid
	 * @param {{ group?: boolean }} [options]  group: the whole process group
	 */
	add(pid, { group = false } = {}) {
		this.entries.push({ pid, group });
		this.write();
	}

	/** @param {number} pid */
	remove(pid) {
		this.entries = this.entries.filter((entry) => entry.pid !== pid);
		this.write();
	}

	write() {
		if (!fs.existsSync(this.file)) return;
		fs.writeFileSync(this.file, this.entries.map(({ pid, group }) => `${pid} ${group ? 'group' : 'single'}\n`).join(''));
	}

	/** Ends the watch: the watchdog leaves within a second. */
	close() {
		fs.rmSync(this.file, { force: true });
	}
}

/**
 * Starts a watchdog for this process over a new registry file; returns the registry.
 * @param {string} file
 */
function startWatchdog(file) {
	const registry = new Registry(file);
	const child = spawn(process.execPath, [__filename, String(process.pid), file], { detached: true, stdio: 'ignore' });
	child.unref();
	registry.watchdogPid = child.pid;
	return registry;
}

if (require.main === module) {
	const [parentPid, file] = parseArgs({ args: process.argv.slice(2), allowPositionals: true }).positionals;
	watch(Number(parentPid), file);
}

module.exports = { startWatchdog, Registry };
