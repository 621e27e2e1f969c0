import { spawn, spawnSync } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

const SEND = path.join(__dirname, '../../../tools/sandbox/send.js');
const TRIGGER_PATH = '/webhook/2d6a9f13-8c4b-4e70-b5a1-6f0e3c7d9b52/webhook';

async function run(url: string): Promise<{ stdout: string; stderr: string; status: number | null }> {
	// Asynchronously, so that the server in this process can answer.
	return await new Promise((resolve) => {
		const child = spawn(process.execPath, [SEND, url]);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('close', (status) => resolve({ stdout, stderr, status }));
	});
}

describe('npm run sandbox:send', () => {
	let server: http.Server;
	let base: string;
	const received: string[] = [];

	beforeAll(async () => {
		server = http.createServer((request, response) => {
			received.push(request.url ?? '');
			response.end('{"received":true}');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await new Promise((resolve) => server.close(resolve));
	});

	it('prints the whole address it sends to, the id in it included (npm shows it as ***)', async () => {
		const { stdout, status } = await run(`${base}${TRIGGER_PATH}`);
		expect(status).toBe(0);
		expect(stdout.split('\n')[0]).toBe(`Sending an example delivery to ${base}${TRIGGER_PATH}`);
		expect(received).toEqual([TRIGGER_PATH]);
	});

	it('says that nothing answered at an address where nothing listens', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const { stderr, status } = spawnSync(process.execPath, [SEND, `http://127.0.0.1:${port}/webhook/x/webhook`], { encoding: 'utf8' });
		expect(status).toBe(1);
		expect(stderr).toBe('sandbox:send: fetch failed (ECONNREFUSED: is n8n running at that address?)\n');
	});
});
