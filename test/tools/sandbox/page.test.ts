import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox } from '../../helpers/sandbox';
import { startSandbox } from '../../helpers/sandbox';

describe('the sandbox page lists the example deliveries it sent', () => {
	let sandbox: Sandbox;
	let trigger: http.Server;
	let triggerUrl: string;

	beforeAll(async () => {
		sandbox = await startSandbox();
		trigger = http.createServer((_request, response) => response.end('{"received":true,"started":true}'));
		await new Promise<void>((resolve) => trigger.listen(0, '127.0.0.1', resolve));
		triggerUrl = `http://127.0.0.1:${(trigger.address() as AddressInfo).port}/webhook/abc/webhook`;
	});
	afterAll(async () => {
		await sandbox?.stop();
		await new Promise((resolve) => trigger.close(resolve));
	});

	const sendFromThePage = async (target: string) =>
		await fetch(`${sandbox.url}/_sandbox/send-webhook`, { method: 'POST', body: JSON.stringify({ target }) });
	const page = async () => await (await fetch(`${sandbox.url}/`)).text();

	it('with the address, the time and the trigger\'s answer, newest first', async () => {
		expect(await page()).toContain('<h2>Example deliveries sent (0)</h2>');
		expect((await sendFromThePage(triggerUrl)).status).toBe(200);
		expect((await sendFromThePage('not a url')).status).toBe(200);

		const shown = await page();
		expect(shown).toContain('<h2>Example deliveries sent (2)</h2>');
		const rows = shown.slice(shown.indexOf('Example deliveries sent')).match(/<tr><td>[^<]+<\/td><td>[^<]*<\/td><td>.*?<\/td><\/tr>/g);
		expect(rows).toEqual([
			expect.stringMatching(/<td>not a url<\/td><td>Give the webhook URL to send to/),
			expect.stringContaining(`<td>${triggerUrl}</td><td>HTTP 200 <code>{&quot;received&quot;:true,&quot;started&quot;:true}</code></td>`),
		]);
		expect(sandbox.state.deliveries).toEqual([
			{ at: expect.any(String), target: triggerUrl, status: 200, answer: '{"received":true,"started":true}' },
			{ at: expect.any(String), target: 'not a url', error: expect.stringMatching(/^Give the webhook URL/) },
		]);
	});

	it('and says when nothing answered', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const target = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/webhook/x/webhook`;
		await new Promise((resolve) => closed.close(resolve));
		expect((await sendFromThePage(target)).status).toBe(500);
		expect(sandbox.state.deliveries.at(-1)).toEqual({ at: expect.any(String), target, error: 'No answer: fetch failed' });
		expect(await page()).toContain(`<td>${target}</td><td>No answer: fetch failed</td>`);
	});
});
