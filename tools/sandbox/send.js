#!/usr/bin/env node
'use strict';
// npm run sandbox:send -- <webhook URL> [--header "Name: value"]
// POSTs one example delivery (labelled as an example, not a platform event) to a trigger URL.
const { sendSampleDelivery } = require('./webhook');

async function main() {
	const [target, flag, header] = process.argv.slice(2);
	const headers = {};
	if (flag === '--header' && header) {
		const [name, ...value] = header.split(':');
		headers[name.trim()] = value.join(':').trim();
	}
	const result = await sendSampleDelivery(target, { headers });
	process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
	process.exit(result.sent && result.status < 300 ? 0 : 1);
}

main().catch((error) => {
	process.stderr.write(`sandbox:send: ${error.message}\n`);
	process.exit(1);
});
