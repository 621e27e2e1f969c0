import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';

import { apiKeyProblem } from '../../../../nodes/VideoPlatform/shared/apiKey';
import { baseUrlProblem } from '../../../../nodes/VideoPlatform/shared/baseUrl';
import { PlatformClient } from '../../../../nodes/VideoPlatform/transport';
import { createExecuteContext, testNode } from '../../../helpers/executeContext';
import { createRoom, createRoomFailure } from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { startSandbox } from '../../../helpers/sandbox';
import { anyText } from '../../../helpers/unicode';

const KEY = 'sk_live_0123456789abcdef';

describe('the Base URL rule', () => {
	it.each([
		'https://video.example.com',
		'https://video.example.com/api/v1/',
		'http://127.0.0.1:8787',
		'https://[::1]:8443',
		'http://[::1]:8080',
		'https://video.example.com:65535',
		// IPv6 without a port: the colons inside the brackets are not a port's.
		'http://[::1]',
		'https://[2001:db8::1]',
		'https://[::ffff:127.0.0.1]/api',
		'http://[::1]/',
		// An international host name is fine: it has the dots it seems to have.
		'https://vidéo.example.com',
	])('accepts %p', (url) => {
		expect(baseUrlProblem(url)).toBeUndefined();
	});

	it.each([
		['https://video.example.com:99999', /has a port that is not a number from 1 to 65535$/],
		['https://video.example.com:0', /has a port that is not a number from 1 to 65535$/],
		['https://video.example.com:8o8o', /has a port that is not a number from 1 to 65535$/],
		['https://video.example.com:65536', /has a port that is not a number from 1 to 65535$/],
		['https://video.example.com:+80', /has a port that is not a number from 1 to 65535$/],
		['https://[::1]:0', /has a port that is not a number from 1 to 65535$/],
		['https://[::1]:99999', /has a port that is not a number from 1 to 65535$/],
		['https://[::1]:8o8o', /has a port that is not a number from 1 to 65535$/],
		['https://video.example.com\u3002evil.com', /has a character in its host name that web addresses read as a dot$/],
		['https://video.example.com\uFF0Eevil.com', /has a character in its host name that web addresses read as a dot$/],
		['https://video.example.com\uFF61evil.com/api', /has a character in its host name that web addresses read as a dot$/],
		['https://video example.com', /has a space or a line break in it$/],
		['https://video.example.com/my api', /has a space or a line break in it$/],
		['https://video.example.com%40evil.com', /has percent-encoding \(%…\) in its host name$/],
		['https://video.example.com%2Eevil.com', /has percent-encoding \(%…\) in its host name$/],
		['https://user%40evil.com@video.example.com', /has a user name or password in it/],
		['ftp://video.example.com', /does not start with https:\/\/ or http:\/\/$/],
		['video.example.com', /is not a web address$/],
		['https://', /is not a web address$/],
	])('refuses %p with its own reason, without quoting it', (url, reason) => {
		const problem = baseUrlProblem(url);
		expect(problem?.message).toMatch(reason);
		expect(JSON.stringify(problem)).not.toMatch(/evil|99999|65536|\+80|8o8o|video example|my api|ftp:/);
	});

	it.each([
		// user "admin", password "1234/s3cret": a parser reads host "admin", port 1234.
		'https://admin:1234/s3cret@video.example.com',
		'https://admin:1234?s3cret@video.example.com',
		'https://admin:1234#s3cret@video.example.com',
		'https://admin:1234\\s3cret@video.example.com',
		'http://127.0.0.1:8787/s3cret@video.example.com/api/v1',
		'https://video.example.com/api/s3cret@',
	])('refuses %p, with an @ after where the host seems to end, as a user name or password, without quoting it', (url) => {
		const problem = baseUrlProblem(url);
		expect(problem?.message).toBe("The credential's Base URL has a user name or password in it (…@ before the host)");
		expect(problem?.description).toMatch(/^Remove everything between :\/\/ and @, the user name and password, from the Base URL/);
		expect(problem?.description).toMatch(/The API key goes in the credential's API Key field.* Nothing was sent\.$/);
		expect(JSON.stringify(problem)).not.toMatch(/s3cret|admin|1234|8787/);
	});

	it('refuses any Base URL with an @ in it, in the same words whatever surrounds it', () => {
		const userInfo = baseUrlProblem('https://admin:hunter2@video.example.com');
		const scheme = fc.constantFrom('https://', 'http://', 'HTTPS://', 'https:\\\\', 'https:/', '//', '');
		const endsTheHost = fc.constantFrom('/', '?', '#', '\\', '');
		fc.assert(
			fc.property(scheme, anyText(), endsTheHost, anyText(), anyText(), (start, before, end, password, after) => {
				expect(baseUrlProblem(`${start}${before}${end}${password}@${after}`)).toEqual(userInfo);
			}),
			{ numRuns: 500 },
		);
	});

	it('gives every refusal a message of its own', () => {
		const urls = ['https://a.example:99999', 'https://a .example', 'https://a%2E.example', 'https://a\u3002example', 'https://u@a.example', 'https://a.example?x', 'ftp://a.example', 'a.example'];
		const messages = urls.map((url) => baseUrlProblem(url)?.message);
		expect(new Set(messages).size).toBe(urls.length);
	});
});

/** Item 3's Room → Create with this API key; a refused key fails before anything is sent. */
async function createRoomWithKey(apiKey: string, baseUrl = 'https://video.example.com') {
	return await new PlatformClient(createExecuteContext({ credentials: { baseUrl, apiKey } }), 'room').request(createRoom, 3);
}

describe('the API key rule', () => {
	it.each(['', '   ', 'Bearer ', 'Bearer', ' bearer   ', '\t'])('refuses the empty key %p', async (raw) => {
		await expect(createRoomWithKey(raw)).rejects.toThrow(
			new NodeOperationError(testNode, 'The API key in the Video Platform API credential is empty [item 3]'),
		);
	});

	it.each([
		['k', '1 character'],
		['Bearer 1', '1 character'],
		['  sk_1234 ', '7 characters'],
	])('refuses the key %p as too short (%s)', async (raw, length) => {
		await expect(createRoomWithKey(raw)).rejects.toThrow(
			new NodeOperationError(
				testNode,
				`The API key in the Video Platform API credential is too short to be an API key (${length}) [item 3]`,
			),
		);
	});

	it('says why a short key is refused, without quoting it', () => {
		const description = apiKeyProblem('sk_1234')?.description ?? '';
		expect(description).toMatch(/^Copy the whole API key from the platform/);
		expect(description).toMatch(/the node's own rule/);
		expect(description).toMatch(/publishes none/);
		expect(description).not.toContain('sk_1234');
	});

	it('accepts a key of 8 characters, the fewest it takes', () => {
		expect(apiKeyProblem('sk_12345')).toBeUndefined();
	});

	it('says how to fix an empty key', () => {
		expect(apiKeyProblem('')?.description).toMatch(/^Paste the API key your platform issued/);
	});

	it('accepts a key of visible ASCII, and sends it without the Bearer the user pasted', async () => {
		const sandbox = await startSandbox({ apiKey: KEY });
		try {
			expect((await createRoomWithKey(`Bearer ${KEY}`, sandbox.url)).statusCode).toBe(201);
			expect(sandbox.state.requests).toEqual([expect.objectContaining({ path: '/v1/rooms', authorization: 'valid Bearer key', authorizationHeaders: 1 })]);
		} finally {
			await sandbox.stop();
		}
	});
});

describe('a credential that breaks a rule sends nothing, through n8n-core\'s real client', () => {
	let sandbox: Sandbox;
	beforeEach(async () => (sandbox = await startSandbox()));
	afterEach(async () => await sandbox.stop());

	it('a host with percent-encoding, which the client would decode into another host', async () => {
		const encoded = sandbox.url.replace('127.0.0.1', '127.0.0%2E1');
		const error = await createRoomFailure(encoded);
		expect(error.message).toBe("The credential's Base URL has percent-encoding (%…) in its host name [item 0]");
		expect(sandbox.state.requests).toEqual([]);
	});

	it('a space inside, which the client would encode and send', async () => {
		const error = await createRoomFailure(`${sandbox.url}/my api`);
		expect(error.message).toBe("The credential's Base URL has a space or a line break in it [item 0]");
		expect(sandbox.state.requests).toEqual([]);
	});

	it('a password with a / in it, which would send the key to the host the user name seems to be', async () => {
		// user "127.0.0.1", password "<port>/s3cret-pw": a parser reads the sandbox's address.
		const error = await createRoomFailure(`${sandbox.url}/s3cret-pw@video.example.com`);
		expect(error.message).toBe("The credential's Base URL has a user name or password in it (…@ before the host) [item 0]");
		expect(error.description).toMatch(/Nothing was sent\.$/);
		expect(JSON.stringify([error.message, error.description, error])).not.toContain('s3cret-pw');
		expect(sandbox.state.requests).toEqual([]);
	});

	it('a port out of range', async () => {
		const error = await createRoomFailure('http://127.0.0.1:99999');
		expect(error.message).toBe("The credential's Base URL has a port that is not a number from 1 to 65535 [item 0]");
		expect(error.description).toMatch(/Nothing was sent/);
	});

	it('a host with a character read as a dot, which would send the key to another host', async () => {
		const lookalike = sandbox.url.replace('127.0.0.1', '127\u30020\uFF0E0\uFF611');
		const error = await createRoomFailure(lookalike);
		expect(error.message).toBe(
			"The credential's Base URL has a character in its host name that web addresses read as a dot [item 0]",
		);
		expect(error.description).toMatch(/Nothing was sent/);
		expect(sandbox.state.requests).toEqual([]);
	});

	it('a key too short to be one, which could not be hidden in messages', async () => {
		const error = await createRoomFailure(sandbox.url, undefined, '1');
		expect(error.message).toBe(
			'The API key in the Video Platform API credential is too short to be an API key (1 character) [item 0]',
		);
		expect(error.description).toMatch(/Nothing was sent/);
		expect(sandbox.state.requests).toEqual([]);
	});

	it.each(['', '  ', 'Bearer ', 'Bearer'])('the empty API key %p', async (apiKey) => {
		const error = await createRoomFailure(sandbox.url, undefined, apiKey);
		expect(error.message).toBe('The API key in the Video Platform API credential is empty [item 0]');
		expect(sandbox.state.requests).toEqual([]);
	});
});
