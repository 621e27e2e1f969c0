#!/usr/bin/env node
'use strict';
// npm run sandbox:send -- <webhook URL> [--header "Name: value"]
// POSTs one example delivery (labelled as an example, not a platform event) to a trigger URL.
const { parseArgs } = require('node:util');
const { sendSampleDelivery } = require('./webhook');

const USAGE = 'Usage: npm run sandbox:send -- <webhook URL> [--header "Name: value"]';

async function main() {
	const { values, positionals } = parseArgs({
		args: process.argv.slice(2),
		allowPositionals: true,
		options: { header: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
	});
	const [target] = positionals;
	if (values.help) return void process.stdout.write(`${USAGE}\n`);
	if (!target || positionals.length > 1) {
		process.stderr.write(`${USAGE}\n`);
		process.exit(1);
	}
	/** @type {Record<string, string>} */
	const headers = {};
	if (values.header) {
		const [name, ...value] = values.header.split(':');
		headers[name.trim()] = value.join(':').trim();
	}
	// npm's own line above shows an id in the URL as ***; this one shows the address really used.
	if (/^https?:\/\//.test(target)) process.stdout.write(`Sending an example delivery to ${target}\n`);
	const result = await sendSampleDelivery(target, { headers });
	process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
	process.exit(result.sent && Number(result.status) < 300 ? 0 : 1);
}

main().catch((error) => {
	const cause = error.cause?.code ? ` (${error.cause.code}: is n8n running at that address?)` : '';
	process.stderr.write(`sandbox:send: ${error.message}${cause}\n`);
	if (String(error.code).startsWith('ERR_PARSE_ARGS_')) process.stderr.write(`${USAGE}\n`);
	process.exit(1);
});
