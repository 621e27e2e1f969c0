import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';

import {
	API_CREDENTIAL,
	apiKeyProblem,
	baseUrlProblem,
	IN_API_CREDENTIAL,
	isHeaderSafeText,
	normalizeApiKey,
	normalizeBaseUrl,
	WEBHOOK_CREDENTIAL,
} from '../../../../nodes/VideoPlatform/shared/credentials';
import { PlatformClient } from '../../../../nodes/VideoPlatform/transport/client';
import { createExecuteContext, testNode } from '../../../helpers/executeContext';
import { createRoom } from '../../../helpers/platformClient';
import { startSandbox } from '../../../helpers/sandbox';
import { anyCodePoint, anyText } from '../../../helpers/unicode';

describe("the credential types' names", () => {
	// A contract, not a restatement: n8n stores the type with every workflow that uses the credential.
	it('are the types saved workflows hold, and the names the editor lists', () => {
		expect(API_CREDENTIAL).toEqual({ type: 'videoPlatformApi', displayName: 'Video Platform API' });
		expect(WEBHOOK_CREDENTIAL).toEqual({ type: 'videoPlatformWebhookApi', displayName: 'Video Platform Webhook API' });
	});

	it("end the messages' advice with the API credential's name as the editor lists it", () => {
		expect(IN_API_CREDENTIAL).toBe('in the Video Platform API credential');
	});
});

const visibleAscii = fc.integer({ min: 0x20, max: 0x7e }).map((cp) => String.fromCodePoint(cp));

describe('isHeaderSafeText', () => {
	it('takes any text of visible ASCII and spaces, the empty text included', () => {
		fc.assert(fc.property(fc.string({ unit: visibleAscii }), (text) => expect(isHeaderSafeText(text)).toBe(true)));
	});

	it('refuses text with any other character anywhere in it', () => {
		const other = anyCodePoint.filter((char) => !/^[\x20-\x7e]$/.test(char));
		fc.assert(
			fc.property(anyText(), other, anyText(), (before, char, after) => expect(isHeaderSafeText(`${before}${char}${after}`)).toBe(false)),
		);
	});

	it.each(['\t', '\n', '\r', '\x7f', '\x1f', '\u00a0', 'é', '\u200b', '😀'])('refuses %j, which a header cannot carry as it is', (char) => {
		expect(isHeaderSafeText(`key${char}`)).toBe(false);
	});
});

const KEY = 'sk_live_0123456789abcdef';

describe('normalizeApiKey', () => {
	it.each([
		['abc123', 'abc123'],
		['  abc123  ', 'abc123'],
		['Bearer abc123', 'abc123'],
		['bearer    abc123 ', 'abc123'],
		['BEARER abc123', 'abc123'],
		['Bearerabc123', 'Bearerabc123'],
		['Bearer ', ''],
		[' bearer', ''],
	])('%p becomes %p', (raw, expected) => {
		expect(normalizeApiKey(raw)).toBe(expected);
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

	it('reads a key never filled in (undefined or null, as in a credential saved before the field existed) as empty', () => {
		expect(normalizeApiKey(undefined)).toBe('');
		expect(normalizeApiKey(null)).toBe('');
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

describe('normalizeBaseUrl', () => {
	it.each([
		['https://video.example.com', 'https://video.example.com'],
		['https://video.example.com/', 'https://video.example.com'],
		['https://video.example.com///', 'https://video.example.com'],
		['https://video.example.com/v1', 'https://video.example.com'],
		['https://video.example.com/v1/', 'https://video.example.com'],
		['  https://video.example.com/V1/  ', 'https://video.example.com'],
		['https://video.example.com/api/v1/', 'https://video.example.com/api'],
		['https://video.example.com/v10', 'https://video.example.com/v10'],
		[undefined, ''],
	])('%p becomes %p', (raw, expected) => {
		expect(normalizeBaseUrl(raw)).toBe(expected);
	});
});

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
		['https://video.example.com/api?tenant=7', "The credential's Base URL has a query (?…) or a fragment (#…) in it", 'Remove everything from the ? or # on'],
		['https://video.example.com/api#rooms', "The credential's Base URL has a query (?…) or a fragment (#…) in it", 'Remove everything from the ? or # on'],
		['https://video.example.com/my api', "The credential's Base URL has a space or a line break in it", 'Remove it'],
		['https://vid%65o.example.com', "The credential's Base URL has percent-encoding (%…) in its host name", 'Type the host name as plain text'],
		['https://video。example.com', "The credential's Base URL has a character in its host name that web addresses read as a dot", 'Type the host name with plain dots'],
		['https://video.example.com\\api', "The credential's Base URL has a backslash (\\) in it", 'Use forward slashes'],
		['https:/video.example.com', "The credential's Base URL does not have two slashes after https: or http:", 'Write the start of the Base URL'],
		['https://video.example.com:99999', "The credential's Base URL has a port that is not a number from 1 to 65535", 'Correct the number after the host\'s colon'],
		['ftp://video.example.com', "The credential's Base URL does not start with https:// or http://", 'Enter your platform\'s address'],
	])('refuses %p, says how to fix it in the credential, and that nothing was sent', (url, message, fix) => {
		const problem = baseUrlProblem(url);
		expect(problem?.message).toBe(message);
		expect(problem?.description.startsWith(fix)).toBe(true);
		expect(problem?.description).toContain('the Video Platform API credential');
		expect(problem?.description).toMatch(/ Nothing was sent\.$/);
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

describe('the key and Base URL rules at their edges', () => {
	// docs/credentials.md: a key longer than a request header can carry (16,384 characters) is refused.
	const LONGEST_KEY = 16_384;

	it('strips only a leading Bearer: a key with "bearer " inside is sent as it is', () => {
		expect(normalizeApiKey('sk_bearer token123')).toBe('sk_bearer token123');
	});

	it('takes a key of exactly the longest length, refuses one character more, and says why and what to do', () => {
		expect(apiKeyProblem('k'.repeat(LONGEST_KEY))).toBeUndefined();
		expect(apiKeyProblem('k'.repeat(LONGEST_KEY + 1))?.description).toMatch(/^A request's headers cannot carry a key this long: servers refuse them\. Check .* Nothing was sent\.$/);
		expect(apiKeyProblem('ключ-ключ-ключ')?.description).toMatch(/^Only plain ASCII letters, digits and punctuation can be sent\. Copy the key again .* Nothing was sent\.$/);
	});

	it('forgives any number of trailing slashes on the Base URL', () => {
		expect(normalizeBaseUrl('https://video.example.com///')).toBe('https://video.example.com');
		expect(normalizeBaseUrl('https://video.example.com/v1//')).toBe('https://video.example.com');
		expect(normalizeBaseUrl('https://video.example.com///v1')).toBe('https://video.example.com');
	});

	it('reads the port of a Base URL typed without a scheme, and refuses a port outside 1 to 65535 or with more after it', () => {
		const portProblem = baseUrlProblem('https://video.example.com:0');
		expect(portProblem?.message).toMatch(/port that is not a number from 1 to 65535/);
		expect(baseUrlProblem('//video.example.com:0')).toEqual(portProblem);
		expect(baseUrlProblem('https://video.example.com:1')).toBeUndefined();
		expect(baseUrlProblem('https://video.example.com:8443x')).toEqual(portProblem);
		expect(baseUrlProblem('https://video.example.com:')).toBeUndefined();
	});

	it('refuses a port that JavaScript would read as a number but is not digits only (1e3, 0x50)', () => {
		const portProblem = baseUrlProblem('https://video.example.com:0');
		expect(baseUrlProblem('https://video.example.com:1e3')).toEqual(portProblem);
		expect(baseUrlProblem('https://video.example.com:0x50')).toEqual(portProblem);
	});

	it("leaves a host of no known shape to the URL parser's words, not read for a port", () => {
		// `a]` is no host name and no bracketed IPv6 address: what follows its colon is no port either.
		expect(baseUrlProblem('https://video]:0')?.message).toBe("The credential's Base URL is not a web address");
	});

	it.each(['https:/video.example.com/http://proxy', 'https:video.example.com/v1/https://rooms'])(
		'refuses %p as lacking the two slashes after its start, though https:// or http:// comes later in it',
		(url) => {
			expect(baseUrlProblem(url)?.message).toBe("The credential's Base URL does not have two slashes after https: or http:");
		},
	);
});
