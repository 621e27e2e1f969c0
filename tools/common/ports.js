'use strict';
// Ports on 127.0.0.1 for the servers the tools start.
//
// A port is chosen here and bound later by another process, sometimes many times (each `n8n
// execute` binds its task broker's port anew). A port from the kernel's ephemeral range could be
// taken in between by any socket opened with port 0: an outgoing connection or a test's server.
// n8n then refuses to run ("n8n Task Broker's port … is already in use"), so ports come from below
// that range, where only an explicit bind can take them.
const fs = require('node:fs');
const net = require('node:net');

const LOWEST = 10_000;
// IANA's dynamic range, where the kernel's own cannot be read (not Linux).
const IANA_EPHEMERAL_START = 49_152;

/** The first port of the kernel's ephemeral range. */
function ephemeralStart() {
	try {
		const [start] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
		return Number.isInteger(start) && start > 0 ? start : IANA_EPHEMERAL_START;
	} catch {
		return IANA_EPHEMERAL_START;
	}
}

/**
 * Whether `port` can be bound on 127.0.0.1 now (0: the kernel's choice); the bound port or 0.
 * @param {number} port
 * @returns {Promise<number>}
 */
function tryBind(port) {
	return new Promise((resolve) => {
		const server = net.createServer().once('error', () => resolve(0));
		server.listen(port, '127.0.0.1', () => {
			const bound = /** @type {net.AddressInfo} */ (server.address()).port;
			server.close(() => resolve(bound));
		});
	});
}

/**
 * A free TCP port on 127.0.0.1, below the ephemeral range when there is room there.
 * @returns {Promise<number>}
 */
async function freePort() {
	const end = ephemeralStart();
	for (let attempt = 0; end - LOWEST > 1000 && attempt < 50; attempt++) {
		const port = await tryBind(LOWEST + Math.floor(Math.random() * (end - LOWEST)));
		if (port) return port;
	}
	const port = await tryBind(0);
	if (!port) throw new Error('No free TCP port on 127.0.0.1');
	return port;
}

/**
 * The preferred port when it is free, else any free one (0 or none means any).
 * @param {number} [preferred]
 * @returns {Promise<number>}
 */
async function portOr(preferred) {
	if (!preferred) return await freePort();
	return (await tryBind(preferred)) || (await freePort());
}

module.exports = { freePort, portOr, ephemeralStart };
