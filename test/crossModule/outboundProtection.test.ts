import { SsrfBlockedHostnameError, SsrfBlockedIpError } from '@n8n/backend-network';
import fc from 'fast-check';
import type { NodeApiError } from 'n8n-workflow';
import { NodeApiError as N8nNodeApiError } from 'n8n-workflow';

import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { noAnswerOutcome } from '../../nodes/VideoPlatform/transport/answer';
import { createExecuteContext, realHttp, testNode } from '../helpers/executeContext';
import { createRoom, createRoomFailure, createRoomFailureOn, failedCreateRoom as failed } from '../helpers/platformClient';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';

/**
 * Requests that n8n itself refuses to send: its outbound (SSRF) protection, as n8n 2.41 runs it
 * with N8N_SSRF_PROTECTION_ENABLED=true, and a Base URL its client cannot use. Nothing reaches
 * the platform, so the item says so, rather than "the platform may have created the room".
 */

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.state.requests.length = 0;
	sandbox.state.counts.total = 0;
});

const ALLOW_IT =
	'Nothing was sent. An n8n administrator can allow this host with N8N_SSRF_ALLOWED_HOSTNAMES, or its address with N8N_SSRF_ALLOWED_IP_RANGES, in n8n\'s environment.';

/** Room → Create through n8n-core's real client with its SSRF protection on: the error, and the client. */
async function blockedCreate(baseUrl: string) {
	const credentials = { baseUrl, apiKey: SANDBOX_KEY };
	const context = createExecuteContext({ credentials, http: realHttp(credentials, { useDefaultSsrfPolicy: 'enforced' }) });
	const client = new PlatformClient(context, 'room');
	const error = await client.request(createRoom, 0).then(
		() => {
			throw new Error('expected n8n to block the request');
		},
		(failure: NodeApiError) => failure,
	);
	return { error, client };
}

describe("a request n8n's SSRF protection blocks: nothing was sent, and an administrator can allow the host", () => {
	it('Room → Create to the sandbox on 127.0.0.1', async () => {
		const { error, client } = await blockedCreate(sandbox.url);
		expect(error.message).toBe(
			`n8n's outbound protection (SSRF protection) blocked the request to ${sandbox.url}. n8n's reason: The request was blocked because it resolves to a restricted IP address (127.0.0.1) [item 0]`,
		);
		expect(error.description).toBe(ALLOW_IT);
		expect(client.mayHaveActedFor(0)).toBe(false);
		expect(sandbox.state.requests).toEqual([]);
	});

	it('any address in the ranges n8n blocks, by host name or address', async () => {
		const octet = fc.integer({ min: 0, max: 255 });
		const blockedIp = fc.oneof(
			fc.tuple(octet, octet, octet).map(([a, b, c]) => `10.${a}.${b}.${c}`),
			fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}`),
			fc.tuple(octet, octet).map(([a, b]) => `192.168.${a}.${b}`),
			fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([a, b, c]) => `172.${a}.${b}.${c}`),
			fc.tuple(octet, octet).map(([a, b]) => `169.254.${a}.${b}`),
		);
		await fc.assert(
			fc.asyncProperty(blockedIp, fc.constantFrom('http', 'https'), fc.integer({ min: 1, max: 65535 }), async (ip, scheme, port) => {
				const { error, client } = await blockedCreate(`${scheme}://${ip}:${port}`);
				expect(error.message).toMatch(/^n8n's outbound protection \(SSRF protection\) blocked the request to /);
				expect(error.message).toContain(`n8n's reason: The request was blocked because it resolves to a restricted IP address (${ip})`);
				expect(error.description).toBe(ALLOW_IT);
				expect(client.mayHaveActedFor(0)).toBe(false);
			}),
			{ numRuns: 40 },
		);
		const { error } = await blockedCreate(sandbox.url.replace('127.0.0.1', 'localhost'));
		expect(error.message).toContain('a restricted IP address (127.0.0.1)');
		expect(sandbox.state.requests).toEqual([]);
	});

	it('is told by the error class, wherever n8n nests it, not by its words', () => {
		const hostname = new SsrfBlockedHostnameError('video.internal');
		const ip = new SsrfBlockedIpError('10.0.0.7', 'video.internal');
		const wrapped = new N8nNodeApiError(testNode, hostname as never);
		const viaSocket = Object.assign(new Error('connect failed'), { cause: ip });
		expect(noAnswerOutcome(wrapped, 1000)).toEqual({
			kind: 'blocked-by-n8n',
			reason: 'The request was blocked because the destination hostname is restricted (video.internal)',
		});
		expect(noAnswerOutcome(new N8nNodeApiError(testNode, viaSocket as never), 1000)).toEqual({
			kind: 'blocked-by-n8n',
			reason: 'The request was blocked because it resolves to a restricted IP address (video.internal, 10.0.0.7)',
		});
		// The same words from anything else are not n8n's protection.
		const lookalike = Object.assign(new Error(ip.message), { code: 'ECONNRESET' });
		expect(noAnswerOutcome(lookalike, 1000).kind).toBe('connection-broke');
	});

	it("n8n's reason never shows the key, even when the host name holds it", async () => {
		const error = await createRoomFailureOn({ throws: new SsrfBlockedHostnameError(`${failed.secret}.internal`) });
		expect(error.message).toMatch(/n8n's reason: The request was blocked because the destination hostname is restricted \(\[redacted\]\.internal\)/);
		expect(JSON.stringify([error, error.message, error.description])).not.toContain(failed.secret);
	});
});

describe('a Base URL that the node could parse but n8n\'s client cannot use is refused before sending', () => {
	const twoSlashes = "The credential's Base URL does not have two slashes after https: or http: [item 0]";
	const backslash = "The credential's Base URL has a backslash (\\) in it [item 0]";

	it('a scheme with one slash, none, or backslashes in their place', async () => {
		const separators = fc.constantFrom('', '/', '\\', '\\\\', '/\\', '\\/');
		await fc.assert(
			fc.asyncProperty(separators, fc.constantFrom('http', 'HTTP', 'Http'), fc.constantFrom('', '/api', '/v1'), async (separator, scheme, path) => {
				const baseUrl = sandbox.url.replace(/^http:\/\//, `${scheme}:${separator}`) + path;
				const error = await createRoomFailure(baseUrl);
				expect(error.message).toBe(separator.includes('\\') ? backslash : twoSlashes);
				expect(error.description).toMatch(/Nothing was sent\.$/);
			}),
			{ numRuns: 40 },
		);
		expect(sandbox.state.requests).toEqual([]);
	});

	it.each([`\\api`, '/api\\v2', '/a\\b'])('a backslash after the host: %p', async (tail) => {
		const error = await createRoomFailure(`${sandbox.url}${tail}`);
		expect(error.message).toBe(backslash);
		expect(sandbox.state.requests).toEqual([]);
	});

	it('http:///host, which both the parser and n8n\'s client read as http://host, still goes', async () => {
		const baseUrl = sandbox.url.replace('http://', 'http:///');
		const context = createExecuteContext({ credentials: { baseUrl, apiKey: SANDBOX_KEY } });
		await new PlatformClient(context, 'room').request(createRoom, 0);
		expect(sandbox.state.counts.total).toBe(1);
	});
});
