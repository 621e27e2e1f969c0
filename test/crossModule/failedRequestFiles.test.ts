import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { VideoPlatform } from '../../nodes/VideoPlatform/VideoPlatform.node';
import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { createExecuteContext } from '../helpers/executeContext';

const ROOT = path.join(__dirname, '../..');

type ScriptCoverage = { url: string; functions: { ranges: { count: number }[] }[] };

/** The product files (nodes/, credentials/) whose code ran since the last take: V8's precise coverage, counts reset on each take. */
async function filesRunSince(session: Session): Promise<string[]> {
	const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: ScriptCoverage[] };
	return result
		.filter(({ functions }) => functions.some(({ ranges }) => ranges[0].count > 0))
		.map(({ url }) => path.relative(ROOT, url.replace(/^file:\/\//, '')).split(path.sep).join('/'))
		.filter((file) => /^(nodes|credentials)\//.test(file))
		// Coverage is the whole jest worker's: Drop Redelivered's confirmations, left running by an
		// earlier test file of this worker, can land in the window. The request's own files never
		// reach actions/ (the last test below), so code there is not the request's.
		.filter((file) => !file.startsWith('nodes/VideoPlatform/actions/'))
		.sort();
}

describe("the files a failed request's life runs through (cross-module)", () => {
	// Issue 46: from the operation's call into the transport to the error it gets back, one Room →
	// Create answered HTTP 422, through n8n-core's real client; the node class, router and
	// operation are outside that window. Fewer files here means a request's life reads in fewer places.
	it('are the client, answer reading, pacing, the stop and deadline, redaction and the credential', async () => {
		const server = createServer((request, response) => {
			request.resume();
			request.on('end', () => {
				response.writeHead(422, { 'Content-Type': 'application/json' });
				response.end('{"message":"name is reserved"}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const session = new Session();
		session.connect();
		const window: string[][] = [];
		const request = PlatformClient.prototype.request;
		const spy = jest.spyOn(PlatformClient.prototype, 'request').mockImplementation(async function (this: PlatformClient, ...args) {
			await filesRunSince(session);
			try {
				return await request.apply(this, args);
			} finally {
				window.push(await filesRunSince(session));
			}
		});
		try {
			await session.post('Profiler.enable');
			await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
			const { port } = server.address() as AddressInfo;
			const context = createExecuteContext({
				credentials: { baseUrl: `http://127.0.0.1:${port}`, apiKey: 'sk_measure_secret' },
				items: [{ json: {} }],
				parameters: { resource: 'room', operation: 'create', name: 'Biology', type: 'conference' },
			});
			const error = await new VideoPlatform().execute.call(context).catch((caught: unknown) => caught);
			expect((error as Error).message).toBe('The platform rejected the request (HTTP 422): name is reserved [item 0]');
			expect(window).toEqual([
				[
					'credentials/VideoPlatformApi.credentials.ts',
					'nodes/VideoPlatform/shared/credentials.ts',
					'nodes/VideoPlatform/shared/secretTraces.ts',
					'nodes/VideoPlatform/transport/answer.ts',
					'nodes/VideoPlatform/transport/client.ts',
					'nodes/VideoPlatform/transport/pacer.ts',
					'nodes/VideoPlatform/transport/stop.ts',
				],
			]);
		} finally {
			spy.mockRestore();
			await session.post('Profiler.stopPreciseCoverage');
			session.disconnect();
			server.close();
		}
	});

	it('never reach into actions/: no file of the request imports from it', () => {
		const requestFiles = ['credentials', 'nodes/VideoPlatform/shared', 'nodes/VideoPlatform/transport'].flatMap((folder) =>
			readdirSync(path.join(ROOT, folder))
				.filter((name) => name.endsWith('.ts'))
				.map((name) => path.join(ROOT, folder, name)),
		);
		expect(requestFiles.length).toBeGreaterThan(5);
		for (const file of requestFiles) expect({ file, importsActions: /(?:from|import)\s*'[^']*\/actions(\/|')/.test(readFileSync(file, 'utf8')) }).toEqual({ file, importsActions: false });
	});
});
