import fc from 'fast-check';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { BASE_URL_EXPRESSION, baseUrlProblem, normalizeBaseUrl } from '../../nodes/VideoPlatform/shared/credentials';
import { evaluateCredentialExpression } from '../helpers/credentialExpression';
import { anyText } from '../helpers/unicode';

// Made in each test, not when the file loads: mutation testing counts what runs outside a test as
// covered by no test, and would not run these tests against the credential's mutants.
let credential: VideoPlatformApi;
beforeEach(() => {
	credential = new VideoPlatformApi();
});

describe('VideoPlatformApi credential', () => {
	it('has the public names workflows depend on', () => {
		expect(credential.name).toBe('videoPlatformApi');
		expect(credential.properties.filter((p) => p.type !== 'notice').map((p) => p.name)).toEqual(['baseUrl', 'apiKey']);
		const apiKey = credential.properties.find((p) => p.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
	});

	it.each(['abc123', '  abc123 ', 'Bearer abc123', 'bearer   abc123', ' BEARER abc123  '])(
		'sends exactly one Bearer for the key %p, and keeps the request as it was',
		async (apiKey) => {
			const authenticate = credential.authenticate as Exclude<typeof credential.authenticate, { type: 'generic' }>;
			const request = { url: '/v1/rooms', method: 'POST' as const, headers: { Accept: 'application/json' } };
			expect(await authenticate({ apiKey }, request)).toEqual({
				...request,
				headers: { Accept: 'application/json', Authorization: 'Bearer abc123' },
			});
		},
	);

	it.each([
		'https://video.example.com',
		'https://video.example.com/',
		'https://video.example.com/v1',
		'https://video.example.com/v1/',
		' https://video.example.com/V1// ',
		'https://video.example.com/api/',
		// A path that only ends in the prefix's letters keeps them: the prefix is /v1, slash included.
		'https://video.example.com/apiv1',
		'https://video.example.com/dev1/',
	])('builds the same base URL from %p as the node code', (baseUrl) => {
		expect(baseUrlProblem(baseUrl)).toBeUndefined();
		expect(evaluateCredentialExpression(BASE_URL_EXPRESSION, { baseUrl })).toBe(
			normalizeBaseUrl(baseUrl),
		);
	});

	it.each([
		['https://video.example.com/api?tenant=1', 'https://video.example.com/api'],
		['https://video.example.com/v1/#top', 'https://video.example.com'],
	])('drops from %p the query or fragment the node refuses, since an expression cannot refuse', (baseUrl, expected) => {
		expect(baseUrlProblem(baseUrl)).toBeDefined();
		const kept = String(evaluateCredentialExpression(BASE_URL_EXPRESSION, { baseUrl }));
		expect(kept).toBe(expected);
		expect(new URL(kept)).toMatchObject({ host: 'video.example.com', username: '', password: '' });
	});

	it.each([
		'https://video.example.com%2Eevil.example',
		'https://video.example.com%40evil.example',
		'https://admin@video.example.com%2Eevil.example',
		'HTTPS://VIDEO.EXAMPLE.COM%2eEVIL.EXAMPLE/api',
		'https://video example.com',
		'https://video.example.com/my api',
		'https://video.example.com:99999',
		'https://video.example.com\u3002evil.example',
		'https://video.example.com\uFF0Eevil.example',
		'https://video.example.com\uFF61evil.example',
		// A user name or password, which the node refuses: the key is never sent as Basic auth or to another host.
		'https://admin:hunter2@video.example.com/api',
		'https:/admin:hunter2@video.example.com',
		'//admin:hunter2@video.example.com',
		'https://@video.example.com',
		// A backslash ends the host for a URL parser, but the node counts it as part of the host.
		'http://video.example.com\\@evil.example',
		'http://127.0.0.1:8787\\x@video.example.com',
		'http://127.0.0.1:8787\\x@video.example.com/api?tenant=1',
		// A password with a /, ? or #: a URL parser reads the user name as the host, and what follows as a path, query or fragment.
		'https://admin:1234/s3cret@video.example.com',
		'https://admin:1234?s3cret@video.example.com',
		'https://admin:1234#s3cret@video.example.com',
		'https://video.example.com?x=@evil.example',
	])('leaves no address to send the key to for %p, which the node refuses', (baseUrl) => {
		expect(baseUrlProblem(baseUrl)).toBeDefined();
		const kept = String(evaluateCredentialExpression(BASE_URL_EXPRESSION, { baseUrl }));
		expect(() => new URL(`${kept}/v1/rooms`)).toThrow();
	});

	it('leaves no address to send the key to for any Base URL with an @ in it', () => {
		fc.assert(
			fc.property(fc.constantFrom('https://', 'http://', ''), anyText(), fc.constantFrom('/', '?', '#', '\\', ''), anyText(), anyText(), (start, before, end, password, after) => {
				const baseUrl = `${start}${before}${end}${password}@${after}`;
				const kept = String(evaluateCredentialExpression(BASE_URL_EXPRESSION, { baseUrl }));
				expect(() => new URL(`${kept}/v1/rooms`)).toThrow();
			}),
			{ numRuns: 300 },
		);
	});

	it('leaves no address to send to when a # ends the host, as a URL parser reads it', () => {
		const kept = String(evaluateCredentialExpression(BASE_URL_EXPRESSION, { baseUrl: 'https://admin:p#ss@video.example.com' }));
		expect(() => new URL(kept)).toThrow();
	});

	it.each(['https:/admin:hunter2@video.example.com', '//admin:hunter2@video.example.com', 'https//admin:hunter2@video.example.com', 'sk_live_pasted_key'])(
		'never quotes what was typed in a Base URL the node refuses: %p',
		(baseUrl) => {
			const problem = baseUrlProblem(baseUrl);
			expect(problem).toBeDefined();
			expect(JSON.stringify(problem)).not.toMatch(/hunter2|sk_live/);
		},
	);

	describe('test request', () => {
		let test: VideoPlatformApi['test'];
		beforeEach(() => {
			test = credential.test;
		});

		it('follows no redirect with the key on any n8n: each version reads one of the two options, and none sends it to another origin', () => {
			expect(test.request).toMatchObject({ disableFollowRedirect: true, maxRedirects: 0, sendCredentialsOnCrossOriginRedirect: false });
		});

		it('says what a redirect means, since it is never followed', () => {
			for (const status of [301, 302, 303, 307, 308]) {
				const rule = (test.rules ?? []).find((r) => r.type === 'responseCode' && r.properties.value === status);
				expect(rule?.properties.message).toMatch(
					new RegExp(`^The Base URL answered with a redirect \\(HTTP ${status}\\), which is never followed`),
				);
			}
		});

		it('reports 401 and 403 as a rejected key', () => {
			const rules = test.rules ?? [];
			const messageFor = (status: number) =>
				rules.find((rule) => rule.type === 'responseCode' && rule.properties.value === status)
					?.properties.message;
			expect(messageFor(401)).toMatch(/rejected the API key/);
			expect(messageFor(403)).toMatch(/refused this API key/);
			for (const status of [400, 404, 405, 500]) {
				expect(messageFor(status)).toMatch(/was reached and did not reject the API key/);
				expect(messageFor(status)).not.toMatch(/valid|success/i);
			}
		});

		it("the form's notice says before the click what the test proves, and quotes the red result a working platform can give", () => {
			const notices = credential.properties.filter((p) => p.type === 'notice');
			expect(notices).toHaveLength(1);
			const notice = notices[0].displayName;
			expect(notice).toMatch(/checks that the Base URL answers and that the platform does not refuse the API key/);
			expect(notice).toMatch(/then both are probably fine/);
			const quoted = /"([^"]+)…"/.exec(notice)?.[1];
			expect(quoted).toBeDefined();
			for (const status of [400, 404, 405, 500]) {
				const rule = (test.rules ?? []).find((r) => r.type === 'responseCode' && r.properties.value === status);
				expect(rule?.properties.message.startsWith(String(quoted))).toBe(true);
			}
			// Red keeps its fix for these; the notice sends the user to it, and gives the one for no connection.
			expect(notice).toMatch(/rejected or refused \(n8n 1\.x: [^)]*\), or because of a redirect: do what the message says/);
			expect(notice).toMatch(/could not connect: check the Base URL/);
			// n8n 1.x shows its own words for these answers instead of the rules' (seen in the browser test).
			for (const words of ['The resource you are requesting could not be found', 'Authorization failed', 'Forbidden']) expect(notice).toContain(`"${words}`);
			expect(notice).not.toMatch(/404/);
		});

		it('never calls a 404 a rejection', () => {
			const rule = (test.rules ?? []).find((r) => r.type === 'responseCode' && r.properties.value === 404);
			expect(rule?.properties.message).toMatch(/did not reject the API key/);
			expect(rule?.properties.message).not.toMatch(/\b(rejected|refused)\b/);
		});

		it('says, for a 404 only, that a path in the Base URL may be the cause', () => {
			const messageFor = (status: number) =>
				(test.rules ?? []).find((rule) => rule.type === 'responseCode' && rule.properties.value === status)?.properties.message;
			expect(messageFor(404)).toMatch(/A 404 can also mean that the Base URL has a path the platform's API is not under.* Leave out \/v1: the node adds it\.$/);
			for (const status of [400, 405, 500]) expect(messageFor(status)).toMatch(/if creating a room fails with 404, check the Base URL\.$/);
		});
	});
});
