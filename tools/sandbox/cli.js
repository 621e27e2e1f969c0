#!/usr/bin/env node
'use strict';
// npm run sandbox -- [--port 8787] [--api-key KEY] [--latency-ms 20] [--rate-limit 50]
//                    [--error-rate 0.1] [--error-status 503] [--max-lifetime-s 3600]
// Environment: SANDBOX_PORT, SANDBOX_API_KEY, SANDBOX_LATENCY_MS, SANDBOX_RATE_LIMIT,
// SANDBOX_ERROR_RATE, SANDBOX_ERROR_STATUS, SANDBOX_MAX_LIFETIME_S.
const { createSandbox } = require('./server');

function option(flag, envName, fallback) {
	const index = process.argv.indexOf(flag);
	const raw = index >= 0 ? process.argv[index + 1] : process.env[envName];
	return raw === undefined ? fallback : raw;
}

async function main() {
	const sandbox = createSandbox({
		port: Number(option('--port', 'SANDBOX_PORT', 8787)),
		apiKey: option('--api-key', 'SANDBOX_API_KEY', 'sandbox-key'),
		latencyMs: Number(option('--latency-ms', 'SANDBOX_LATENCY_MS', 0)),
		rateLimit: Number(option('--rate-limit', 'SANDBOX_RATE_LIMIT', 0)),
		errorRate: Number(option('--error-rate', 'SANDBOX_ERROR_RATE', 0)),
		errorStatus: Number(option('--error-status', 'SANDBOX_ERROR_STATUS', 500)),
		maxLifetimeMs: Number(option('--max-lifetime-s', 'SANDBOX_MAX_LIFETIME_S', 0)) * 1000,
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
