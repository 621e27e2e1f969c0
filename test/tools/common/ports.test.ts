import * as net from 'node:net';

import { ephemeralStart, freePort, portOr } from '../../../tools/common/ports';

const listen = (port: number) =>
	new Promise<net.Server>((resolve, reject) => {
		const server = net.createServer().once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve(server));
	});
const close = (server: net.Server) => new Promise((resolve) => server.close(resolve));

describe('freePort', () => {
	it('gives ports below the ephemeral range, which sockets opened with port 0 never take', async () => {
		const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
		for (const port of ports) {
			expect(port).toBeGreaterThanOrEqual(10_000);
			expect(port).toBeLessThan(ephemeralStart());
		}
	});

	it('gives a port that can be bound', async () => {
		const server = await listen(await freePort());
		await close(server);
	});
});

describe('portOr', () => {
	it('keeps the preferred port when it is free, and picks another when it is taken', async () => {
		const preferred = await freePort();
		expect(await portOr(preferred)).toBe(preferred);
		const server = await listen(preferred);
		try {
			const other = await portOr(preferred);
			expect(other).not.toBe(preferred);
			expect(other).toBeGreaterThan(0);
		} finally {
			await close(server);
		}
	});
});
