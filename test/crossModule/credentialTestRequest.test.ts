import { Container } from '@n8n/di';
import { OutboundHttp } from '@n8n/backend-network';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { BASE_URL_EXPRESSION } from '../../nodes/VideoPlatform/shared/credentials';
import { authenticated } from '../helpers/authenticate';
import { evaluateCredentialExpression } from '../helpers/credentialExpression';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';

/** The Test button's request, as n8n builds it from the credential, through n8n's real client. */
async function testRequestAt(baseUrl: string) {
	const { method, url, disableFollowRedirect, maxRedirects, sendCredentialsOnCrossOriginRedirect } =
		new VideoPlatformApi().test.request;
	const credentials = { baseUrl, apiKey: SANDBOX_KEY };
	const request = await authenticated(credentials, {
		method,
		disableFollowRedirect,
		maxRedirects,
		sendCredentialsOnCrossOriginRedirect,
		url: String(url),
		baseURL: String(evaluateCredentialExpression(BASE_URL_EXPRESSION, credentials)),
		returnFullResponse: true,
	});
	return await Container.get(OutboundHttp)
		.requests()
		.request(request)
		.then(
			(response) => (response as { statusCode: number }).statusCode,
			(error: { response?: { status: number } }) => error.response?.status,
		);
}

describe("the credential's Test request against real local servers", () => {
	let platform: Sandbox;
	let elsewhere: Sandbox;
	afterEach(async () => {
		await platform.stop();
		await elsewhere?.stop();
	});

	it.each([301, 302, 307, 308])('does not follow an HTTP %p to another port', async (status) => {
		elsewhere = await startSandbox();
		platform = await startSandbox({ fault: 'redirect', faultRedirectStatus: status, faultRedirectTo: `${elsewhere.url}/v1/rooms` });
		expect(await testRequestAt(platform.url)).toBe(status);
		expect(elsewhere.state.requests).toEqual([]);
	});

	it('sends nothing when the host is percent-encoded or has a space, which the node refuses', async () => {
		platform = await startSandbox();
		const encodedHost = platform.url.replace('127.0.0.1', '127.0.0%2E1');
		expect(await testRequestAt(encodedHost)).toBeUndefined();
		expect(await testRequestAt(`${platform.url}/my api`)).toBeUndefined();
		expect(await testRequestAt(platform.url.replace(/:\d+$/, ':99999'))).toBeUndefined();
		expect(platform.state.requests).toEqual([]);
	});

	it('sends nothing when the Base URL has a user name or password, which the node refuses', async () => {
		platform = await startSandbox();
		expect(await testRequestAt(platform.url.replace('://', '://admin:hunter2@'))).toBeUndefined();
		expect(await testRequestAt(platform.url.replace('://', '://@'))).toBeUndefined();
		expect(platform.state.requests).toEqual([]);
	});

	it('sends nothing to the host before a backslash and an @, which the node takes for user info', async () => {
		// A URL parser ends the host at the backslash, so this would send the key to the sandbox.
		platform = await startSandbox();
		expect(await testRequestAt(`${platform.url}\\x@video.example.com`)).toBeUndefined();
		expect(platform.state.requests).toEqual([]);
	});

	it('sends nothing to the host before a /, ? or # in a password, which the node refuses', async () => {
		// User "127.0.0.1", password "<port>/s3cret": a URL parser reads the sandbox's address.
		platform = await startSandbox();
		for (const end of ['/', '?', '#']) expect(await testRequestAt(`${platform.url}${end}s3cret@video.example.com`)).toBeUndefined();
		expect(platform.state.requests).toEqual([]);
	});

	it('sends nothing to a host with a character read as a dot, which the node refuses', async () => {
		platform = await startSandbox();
		expect(await testRequestAt(platform.url.replace('127.0.0.1', '127\u30020\u30020\u30021'))).toBeUndefined();
		expect(platform.state.requests).toEqual([]);
	});

	it('sends the Bearer key to the right path when the Base URL has a query or a fragment, with a GET and no body', async () => {
		platform = await startSandbox();
		await testRequestAt(`${platform.url}/?tenant=1#top`);
		type Seen = { method: string; path: string; authorization: string; body: string };
		expect(platform.state.requests.map((r: Seen) => [r.method, r.path, r.authorization, r.body])).toEqual([
			['GET', '/v1/rooms', 'valid Bearer key', ''],
		]);
	});
});
