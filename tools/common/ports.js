'use strict';
// Ports on 127.0.0.1 for the servers the tools start.
const net = require('node:net');

/**
 * A free TCP port on 127.0.0.1.
 * @returns {Promise<number>}
 */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = /** @type {net.AddressInfo} */ (server.address());
			server.close(() => resolve(address.port));
		});
	});
}

/**
 * The preferred port when it is free, else any free one (0 or none means any).
 * @param {number} [preferred]
 * @returns {Promise<number>}
 */
async function portOr(preferred) {
	if (!preferred) return await freePort();
	const free = await new Promise((resolve) => {
		const server = net.createServer().once('error', () => resolve(false));
		server.listen(preferred, '127.0.0.1', () => server.close(() => resolve(true)));
	});
	return free ? preferred : await freePort();
}

module.exports = { freePort, portOr };
