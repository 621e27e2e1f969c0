#!/usr/bin/env node
'use strict';
// npm run sandbox -- [--port 8787] [--api-key KEY] [--latency-ms 20] [--rate-limit 50]
//                    [--error-rate 0.1] [--error-status 503] [--max-lifetime-s 3600]
// Environment: SANDBOX_PORT, SANDBOX_API_KEY, SANDBOX_LATENCY_MS, SANDBOX_RATE_LIMIT,
// SANDBOX_ERROR_RATE, SANDBOX_ERROR_STATUS, SANDBOX_MAX_LIFETIME_S.
// Test faults (see faults.js): --fault NAME [--fault-match TEXT] [--fault-redirect-to URL]
//   [--fault-redirect-status 307] [--fault-interval-ms 500] [--fault-duration-ms 90000]
//   [--fault-size-bytes N]; environment SANDBOX_FAULT, SANDBOX_FAULT_MATCH, and so on.
const { createSandbox } = require('./server');

function option(flag, envName, fallback) {
	const index = process.argv.indexOf(flag);
	const raw = index >= 0 ? process.argv[index + 1] : process.env[envName];
	return raw === undefined ? fallback : raw;
}

function faultOptions() {
	const flags = { fault: 'fault', faultMatch: 'fault-match', faultRedirectTo: 'fault-redirect-to', faultRedirectStatus: 'fault-redirect-status', faultIntervalMs: 'fault-interval-ms', faultDurationMs: 'fault-duration-ms', faultSizeBytes: 'fault-size-bytes' };
	const env = (flag) => `SANDBOX_${flag.toUpperCase().replace(/-/g, '_')}`;
	return Object.fromEntries(Object.entries(flags).map(([key, flag]) => [key, option(`--${flag}`, env(flag), undefined)]));
}

async function main() {
	const sandbox = createSandbox({
		port: Number(option('--port', 'SANDBOX_PORT', 8787)),
		apiKey: option('--api-key', 'SANDBOX_API_KEY', 'sandbox-key'),
		latencyMs: Number(option('--latency-ms', 'SANDBOX_LATENCY_MS', 0)),
		rateLimit: Number(option('--rate-limit', 'SANDBOX_RATE_LIMIT', 0)),
		retryAfter: option('--retry-after', 'SANDBOX_RETRY_AFTER', undefined),
		errorRate: Number(option('--error-rate', 'SANDBOX_ERROR_RATE', 0)),
		errorStatus: Number(option('--error-status', 'SANDBOX_ERROR_STATUS', 500)),
		maxLifetimeMs: Number(option('--max-lifetime-s', 'SANDBOX_MAX_LIFETIME_S', 0)) * 1000,
		...faultOptions(),
	});
	const url = await sandbox.start();
	process.stdout.write(`Sandbox listening on ${url} (API key "${sandbox.options.apiKey}"). Open ${url}/ to see rooms and requests.\n`);
	const stop = () => sandbox.stop().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error) => {
	process.stderr.write(`sandbox: ${error.message}\n`);
	process.exit(1);
});
