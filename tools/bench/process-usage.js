'use strict';
// Loaded with --require into a measured process: on exit, writes its peak resident memory and
// its CPU time (all threads) sampled every few ms, so that the CPU a node's run used can be read
// beside its wall time. CPU time moves less than wall time when other processes share the cores.
// `clock` pairs an epoch instant with the monotonic clock a --cpu-prof profile's timestamps use.
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

const target = process.env.BENCH_USAGE_FILE;
if (target) {
	/** @type {[number, number][]} [epoch ms, CPU µs] */
	const cpu = [];
	const sample = () => {
		const { user, system } = process.cpuUsage();
		cpu.push([performance.timeOrigin + performance.now(), user + system]);
	};
	sample();
	setInterval(sample, 5).unref();
	process.on('exit', () => {
		sample();
		const clock = [performance.timeOrigin + performance.now(), Number(process.hrtime.bigint() / 1000n)];
		fs.writeFileSync(target, JSON.stringify({ peakRss: process.resourceUsage().maxRSS * 1024, cpu, clock }));
	});
}
