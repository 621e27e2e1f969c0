#!/usr/bin/env node
'use strict';
// npm run sandbox -- [--port 8787] [--api-key KEY] [--latency-ms 20] [--rate-limit 50]
//                    [--error-rate 0.1] [--error-status 503] [--max-lifetime-s 3600]
// Environment: SANDBOX_PORT, SANDBOX_API_KEY, SANDBOX_LATENCY_MS, SANDBOX_RATE_LIMIT,
// SANDBOX_ERROR_RATE, SANDBOX_ERROR_STATUS, SANDBOX_MAX_LIFETIME_S.
// Test faults (see faults.js): --fault NAME [--fault-match TEXT] [--fault-redirect-to URL]
//   [--fault-redirect-status 307] [--fault-interval-ms 500] [--fault-duration-ms 90000]
//   [--fault-size-bytes N]; environment SANDBOX_FAULT, SANDBOX_FAULT_MATCH, and so on.
const { parseArgs } = require('node:util');
const { createSandbox } = require('./server');

/** Each option, its environment variable being SANDBOX_ and its name in capitals (--max-lifetime-s: SANDBOX_MAX_LIFETIME_S). */
const FLAGS = [
	'port', 'api-key', 'latency-ms', 'rate-limit', 'retry-after', 'error-rate', 'error-status', 'max-lifetime-s',
	'fault', 'fault-match', 'fault-redirect-to', 'fault-redirect-status', 'fault-interval-ms', 'fault-duration-ms', 'fault-size-bytes',
];
const USAGE = `Usage: npm run sandbox -- [--<option> <value> ...]; options: ${FLAGS.map((flag) => `--${flag}`).join(', ')}, --help`;

/**
 * Each option's text from the command line, else from its environment variable; unknown options are refused.
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ help: boolean, option: (flag: string) => string | undefined }}
 */
function optionsFrom(argv, env = process.env) {
	const { values } = parseArgs({
		args: argv,
		options: { ...Object.fromEntries(FLAGS.map((flag) => [flag, { type: 'string' }])), help: { type: 'boolean', short: 'h' } },
	});
	const strings = /** @type {Record<string, string | undefined>} */ (values);
	const option = (/** @type {string} */ flag) => strings[flag] ?? env[`SANDBOX_${flag.toUpperCase().replace(/-/g, '_')}`];
	return { help: Boolean(values.help), option };
}

/** @param {string | undefined} raw @param {number} fallback */
const numberOr = (raw, fallback) => Number(raw === undefined ? fallback : raw);

async function main() {
	const { help, option } = optionsFrom(process.argv.slice(2));
	if (help) return void process.stdout.write(`${USAGE}\n`);
	const sandbox = createSandbox({
		port: numberOr(option('port'), 8787),
		apiKey: option('api-key') ?? 'sandbox-key',
		latencyMs: numberOr(option('latency-ms'), 0),
		rateLimit: numberOr(option('rate-limit'), 0),
		retryAfter: option('retry-after'),
		errorRate: numberOr(option('error-rate'), 0),
		errorStatus: numberOr(option('error-status'), 500),
		maxLifetimeMs: numberOr(option('max-lifetime-s'), 0) * 1000,
		fault: option('fault'),
		faultMatch: option('fault-match'),
		faultRedirectTo: option('fault-redirect-to'),
		faultRedirectStatus: option('fault-redirect-status'),
		faultIntervalMs: option('fault-interval-ms'),
		faultDurationMs: option('fault-duration-ms'),
		faultSizeBytes: option('fault-size-bytes'),
	});
	const url = await sandbox.start();
	process.stdout.write(`Sandbox listening on ${url} (API key "${sandbox.options.apiKey}"). Open ${url}/ to see rooms and requests.\n`);
	const stop = () => sandbox.stop().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`sandbox: ${error.message}\n`);
		if (String(error.code).startsWith('ERR_PARSE_ARGS_')) process.stderr.write(`${USAGE}\n`);
		process.exit(1);
	});
}

module.exports = { optionsFrom };
