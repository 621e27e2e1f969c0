import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server, ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';

import type { NodeApiError } from 'n8n-workflow';

import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { createExecuteContext, realHttp } from '../helpers/executeContext';
import {
	createRoom,
	createRoomFailure as createRoomAt,
	MAY_HAVE_CREATED_ROOM as MAY_HAVE,
} from '../helpers/platformClient';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';

/** A self-signed certificate for 127.0.0.1, made for this run only. */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
	const dir = mkdtempSync(join(tmpdir(), 'videoplatform-tls-'));
	try {
		execFileSync('openssl', [
			'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
			'-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
			'-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
		], { stdio: 'ignore' });
		return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Room → Create through n8n's real client, trusting the test's certificate, so that what the
 * server does after its certificate is checked shows. The node itself never skips the check.
 */
async function createRoomTrustingServer(baseUrl: string): Promise<NodeApiError> {
	const credentials = { baseUrl, apiKey: SANDBOX_KEY };
	const http = realHttp(credentials);
	const context = createExecuteContext({
		credentials,
		http: async (options, decrypted) => await http({ ...options, skipSslCertificateValidation: true }, decrypted),
	});
	return await new PlatformClient(context, 'room').request(createRoom, 0).then(
		() => {
			throw new Error('expected the request to fail');
		},
		(error: NodeApiError) => error,
	);
}

describe('TLS failures before the request: nothing was sent', () => {
	const certificate = selfSignedCertificate();
	let sandbox: Sandbox | undefined;
	let server: Server | undefined;
	let requestsSeen = 0;

	afterEach(async () => {
		await sandbox?.stop();
		server?.closeAllConnections();
		await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
		sandbox = server = undefined;
		requestsSeen = 0;
	});

	async function startHttps(options: ServerOptions): Promise<string> {
		server = createServer({ ...certificate, ...options }, (_request, response) => {
			requestsSeen++;
			response.end('{}');
		});
		await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
		return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
	}

	it('https:// to a server that speaks plain http://', async () => {
		sandbox = await startSandbox();
		const baseUrl = sandbox.url.replace('http://', 'https://');
		const error = await createRoomAt(baseUrl);
		expect(error.message).toBe(
			`Cannot reach the base URL ${baseUrl}: the TLS handshake failed (wrong version number) [item 0]`,
		);
		expect(error.description).toMatch(/^Nothing was sent\. Is the Base URL https:\/\/ for a server that speaks plain http:\/\/\?/);
		expect(sandbox.state.counts.total).toBe(0);
	});

	it("a self-signed server certificate is what n8n's client refuses first", async () => {
		const baseUrl = await startHttps({ requestCert: true, rejectUnauthorized: true });
		const error = await createRoomAt(baseUrl);
		expect(error.message).toBe(`Cannot reach the base URL ${baseUrl}: the server's TLS certificate is self-signed [item 0]`);
		expect(requestsSeen).toBe(0);
	});

	it('a server that requires a client certificate (TLS 1.3)', async () => {
		const baseUrl = await startHttps({ requestCert: true, rejectUnauthorized: true });
		const error = await createRoomTrustingServer(baseUrl);
		expect(error.message).toBe(
			`Cannot reach the base URL ${baseUrl}: the server asks for a client certificate, which the node does not send [item 0]`,
		);
		expect(error.description).toMatch(/^Nothing was sent\./);
		expect(requestsSeen).toBe(0);
	});

	it('a server that requires a client certificate (TLS 1.2: a bare handshake failure)', async () => {
		const baseUrl = await startHttps({ requestCert: true, rejectUnauthorized: true, maxVersion: 'TLSv1.2' });
		const error = await createRoomTrustingServer(baseUrl);
		expect(error.message).toMatch(
			new RegExp(`^Cannot reach the base URL ${baseUrl}: the TLS handshake failed \\(.*alert handshake failure\\) \\[item 0\\]$`),
		);
		expect(error.description).toMatch(/^Nothing was sent\. The server may ask for a client certificate/);
		expect(requestsSeen).toBe(0);
	});
});

describe('a TLS failure after the request went: the room may exist', () => {
	const certificate = selfSignedCertificate();

	it('a record that fails its integrity check, sent in place of the answer', async () => {
		let requestsSeen = 0;
		// A TLS server that takes the request, then writes a forged application-data record.
		const server = createTcpServer((raw) => {
			const secure = new TLSSocket(raw, { isServer: true, ...certificate });
			let received = '';
			secure.on('data', (chunk: Buffer) => {
				received += chunk.toString();
				if (!received.includes('\r\n\r\n') || !received.endsWith('}')) return;
				requestsSeen++;
				raw.write(Buffer.concat([Buffer.from([0x17, 0x03, 0x03, 0x00, 0x20]), Buffer.alloc(32, 'x')]));
			});
			secure.on('error', () => undefined);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const error = await createRoomTrustingServer(baseUrl);
			expect(error.message).toBe(
				`The connection to ${baseUrl} broke before an answer came: a TLS error (decryption failed or bad record mac) [item 0]`,
			);
			expect(error.description).toBe(MAY_HAVE);
			expect(requestsSeen).toBe(1);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});
