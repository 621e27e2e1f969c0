import { Readable } from 'node:stream';

import { SsrfBlockedHostnameError } from '@n8n/backend-network';
import fc from 'fast-check';
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { itemError, namingItem, PlatformClient } from '../../../../nodes/VideoPlatform/transport/client';
import { createExecuteContext } from '../../../helpers/executeContext';
import { ANGLE_BRACKETS, MARKUP_EXAMPLES, outsideTextWithMarkup } from '../../../helpers/outsideText';
import type { ClientOptions, CraftedAnswer, RoomCreateAt } from '../../../helpers/platformClient';
import {
	createRoom,
	createRoomFailure,
	createRoomFailureOn,
	failedCreateRoom as failed,
	MAY_HAVE_CREATED_ROOM,
} from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { fakeClock, SANDBOX_KEY, startLockedOutSandbox, startSandbox } from '../../../helpers/sandbox';
import type { ScriptedAnswer } from '../../../helpers/scriptedServer';
import { scriptedServer } from '../../../helpers/scriptedServer';
import { anyText } from '../../../helpers/unicode';
import { until } from '../../../helpers/waits';

const itemNode: INode = { id: 'n', name: 'Video Platform', type: 'n8n-nodes-videoplatform.videoPlatform', typeVersion: 1, position: [0, 0], parameters: {} };

/** Runs the transport against a real local server and returns the error it throws. */
async function failureOf(run: Promise<unknown>): Promise<NodeApiError> {
	try {
		await run;
	} catch (error) {
		return error as NodeApiError;
	}
	throw new Error('expected the request to fail');
}

function contextFor(baseUrl: string, apiKey = SANDBOX_KEY): IExecuteFunctions {
	return createExecuteContext({ credentials: { baseUrl, apiKey } });
}

/** One request through a client of its own, as the first request of a run. */
async function send(context: IExecuteFunctions, request: Parameters<PlatformClient['request']>[0], itemIndex: number, options?: ClientOptions) {
	return await new PlatformClient(context, 'room', options).request(request, itemIndex);
}

describe('PlatformClient against a real local server', () => {
	let sandbox: Sandbox;
	afterEach(async () => await sandbox?.stop());

	it('sends exactly the stated request and returns the parsed answer', async () => {
		sandbox = await startSandbox();
		const response = await send(contextFor(sandbox.url), createRoom, 0);

		expect(response.statusCode).toBe(201);
		expect(response.body).toMatchObject({ name: 'Biology', type: 'conference' });
		expect(sandbox.state.requests).toHaveLength(1);
		const [seen] = sandbox.state.requests;
		expect(seen).toMatchObject({
			method: 'POST',
			path: '/v1/rooms',
			contentType: 'application/json',
			authorization: 'valid Bearer key',
			body: '{"name":"Biology","type":"conference"}',
		});
	});

	it('works in an n8n that gives nodes no cancel signal', async () => {
		sandbox = await startSandbox();
		const context = Object.assign(contextFor(sandbox.url), { getExecutionCancelSignal: undefined });
		expect((await send(context, createRoom, 0)).statusCode).toBe(201);
	});

	it('sends what users paste into the credential in its normalized form', async () => {
		// The forms themselves are platform.test's; this proves the transport applies them.
		sandbox = await startSandbox();
		await send(contextFor(`  ${sandbox.url}/V1/ `, `  bearer   ${SANDBOX_KEY} `), createRoom, 0);
		expect(sandbox.state.requests).toEqual([
			expect.objectContaining({ path: '/v1/rooms', authorization: 'valid Bearer key' }),
		]);
	});

	describe('maps every failure to an error that names the item and hides the key', () => {
		const expectNoKey = (error: NodeApiError) => {
			const everything = [error.message, error.description, JSON.stringify(error), JSON.stringify(error.context)];
			for (const text of everything) expect(String(text)).not.toContain(SANDBOX_KEY);
		};

		// The message for each status is errors.test's; here: the status as the platform sent
		// it, the item named, the key hidden, and nothing sent twice.
		it('401: wrong key', async () => {
			sandbox = await startSandbox();
			const error = await failureOf(send(contextFor(sandbox.url, 'sk_wrong_key_123'), createRoom, 3));
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('401');
			expect(error.message).toMatch(/\[item 3\]$/);
			expect(JSON.stringify(error)).not.toContain('sk_wrong_key_123');
		});

		it('400: quotes the platform\'s own message', async () => {
			sandbox = await startSandbox();
			const error = await failureOf(send(contextFor(sandbox.url), { ...createRoom, body: { name: 'Biology' } }, 0));
			expect(error.httpCode).toBe('400');
			expect(error.message).toContain('the body must have the member "type"');
			expectNoKey(error);
		});

		it.each([403, 422, 500, 503])('%p', async (status) => {
			sandbox = await startSandbox({ errorRate: 1, errorStatus: status });
			const error = await failureOf(send(contextFor(sandbox.url), createRoom, 0));
			expect(error.httpCode).toBe(String(status));
			expectNoKey(error);
			expect(sandbox.state.counts.total).toBe(1);
		});

		it('404: a base URL that is not the platform', async () => {
			sandbox = await startSandbox();
			const error = await failureOf(
				send(contextFor(`${sandbox.url}/api`), createRoom, 0),
			);
			expect(error.httpCode).toBe('404');
			expect(error.message).toContain(`${sandbox.url}/api/v1/rooms`);
			expect(error.description).toMatch(/Base URL/);
			expectNoKey(error);
		});

		it('refused: nothing listens at the base URL', async () => {
			sandbox = await startSandbox();
			const { url } = sandbox;
			await sandbox.stop();
			const error = await failureOf(send(contextFor(url), createRoom, 0));
			expect(error.message).toBe(`Cannot reach the base URL ${url}: the connection was refused [item 0]`);
			expectNoKey(error);
			sandbox = await startSandbox();
		});

		it('DNS: the host name does not exist', async () => {
			sandbox = await startSandbox();
			const error = await failureOf(
				send(contextFor('http://video-platform.invalid'), createRoom, 0),
			);
			expect(error.message).toMatch(/^Cannot reach the base URL http:\/\/video-platform.invalid: .*DNS/);
			expectNoKey(error);
		});

		it('timeout: no answer in time, and no second try', async () => {
			sandbox = await startSandbox({ latencyMs: 1500 });
			const error = await failureOf(
				send(contextFor(sandbox.url), createRoom, 0, { policy: { deadlineMs: 200 } }),
			);
			expect(error.message).toBe(`No complete answer from ${sandbox.url} within 0.2 s (timeout) [item 0]`);
			expect(error.description).toBe(MAY_HAVE_CREATED_ROOM);
			expectNoKey(error);
			expect(sandbox.state.counts.total).toBe(1);
		});

		it('a base URL that is not a web address, without quoting what was typed there', async () => {
			sandbox = await startSandbox();
			const error = await failureOf(send(contextFor('video.example.com'), createRoom, 1));
			expect(error.message).toBe("The credential's Base URL is not a web address [item 1]");
			expect(error.description).toContain('e.g. https://video.example.com');
		});
	});

	describe('429 and Retry-After', () => {
		it('waits as long as the platform asks, then succeeds', async () => {
			const clock = fakeClock();
			sandbox = await startSandbox({ rateLimit: 1, now: clock.now });
			const client = new PlatformClient(contextFor(sandbox.url), 'room', { clock });
			await client.request(createRoom, 0);
			const second = await client.request(createRoom, 1);

			expect(second.statusCode).toBe(201);
			expect(clock.sleeps).toEqual([1000]);
			expect(sandbox.state.requests.map((r: { status: number }) => r.status)).toEqual([201, 429, 201]);
			expect(client.rateLimits).toEqual({ refused: 1, pausedMs: 1000 });
		});

		it('pauses every request of the run, not only the refused one', async () => {
			// A clock whose sleeps end only when the test says so, then at once.
			let now = 0;
			let instant = false;
			const sleeping: Array<() => void> = [];
			const clock = {
				now: () => now,
				sleep: (ms: number) =>
					new Promise<void>((resolve) => {
						const wake = () => ((now = Math.max(now, target)), resolve());
						const target = now + ms;
						if (instant) wake();
						else sleeping.push(wake);
					}),
			};
			sandbox = await startSandbox({ rateLimit: 1, now: clock.now });
			const client = new PlatformClient(contextFor(sandbox.url), 'room', { clock });

			await client.request(createRoom, 0);
			const refused = client.request(createRoom, 1);
			await until(() => sleeping.length === 1);
			const later = client.request(createRoom, 2);
			await until(() => sleeping.length === 2);
			expect(sandbox.state.counts.total).toBe(2);

			instant = true;
			sleeping.splice(0).forEach((wake) => wake());
			expect((await refused).statusCode).toBe(201);
			expect((await later).statusCode).toBe(201);
			expect(sandbox.state.requests.slice(0, 2).map((r: { status: number }) => r.status)).toEqual([201, 429]);
		});

		it('gives up after the allowed retries, with a clear error', async () => {
			const clock = fakeClock();
			const frozen = () => 1_700_000_000_500;
			sandbox = await startSandbox({ rateLimit: 1, now: frozen });
			const context = contextFor(sandbox.url);
			await send(context, createRoom, 0, { clock });
			const rateLimit = { maxRetries: 3, maxTotalWaitMs: 60_000, fallbackDelayMs: 1000, minDelayMs: 1000 };
			const client = new PlatformClient(context, 'room', { clock, policy: { rateLimit } });
			const error = await failureOf(client.request(createRoom, 1));

			expect(error.httpCode).toBe('429');
			expect(error.message).toBe(
				"The platform's rate limit refused this item 4 times, with 3 s of waiting in between (HTTP 429) [item 1]",
			);
			expect(error.description).toMatch(/^After HTTP 429 the node sends an item at most 4 times\. /);
			expect(clock.sleeps).toEqual([1000, 1000, 1000]);
			expect(sandbox.state.counts.total).toBe(5);
			// The last 429, which made the item give up, counts too; its wait never happened.
			expect(client.rateLimits).toEqual({ refused: 4, pausedMs: 3000 });
		});

		it('a Retry-After of 0 is no tight loop, and the error says what really happened', async () => {
			const clock = fakeClock();
			sandbox = await startLockedOutSandbox('0');
			const client = new PlatformClient(contextFor(sandbox.url), 'room', { clock });
			const error = await failureOf(client.request(createRoom, 0));

			expect(clock.sleeps).toEqual([1000, 1000, 1000, 1000, 1000]);
			expect(sandbox.state.counts.total).toBe(6);
			expect(error.message).toBe(
				"The platform's rate limit refused this item 6 times, with 5 s of waiting in between (HTTP 429) [item 0]",
			);
			expect(client.rateLimits).toEqual({ refused: 6, pausedMs: 5000 });
		});

		it('a Retry-After longer than the node waits for one item: gives up at the first 429 and says so without a count of tries or waits', async () => {
			const clock = fakeClock();
			sandbox = await startLockedOutSandbox('120');
			const error = await failureOf(new PlatformClient(contextFor(sandbox.url), 'room', { clock }).request(createRoom, 0));
			expect(error.message).toBe("The platform's rate limit refused this item (HTTP 429) [item 0]");
			expect(error.description).toMatch(/^The platform asked to wait 120 s more, beyond the 60 s the node waits for one item\. /);
			expect(clock.sleeps).toEqual([]);
			expect(sandbox.state.counts.total).toBe(1);
		});

		it('waits a Retry-After that reaches the total wait budget exactly, and gives up only beyond it', async () => {
			const clock = fakeClock();
			sandbox = await startSandbox({ rateLimit: 1, now: () => 0 });
			const context = contextFor(sandbox.url);
			await send(context, createRoom, 0, { clock });
			const rateLimit = { maxRetries: 10, maxTotalWaitMs: 2000, fallbackDelayMs: 1000, minDelayMs: 1000 };
			await failureOf(send(context, createRoom, 0, { clock, policy: { rateLimit } }));
			expect(clock.sleeps).toEqual([1000, 1000]);
		});

				it('does not wait beyond the total wait budget', async () => {
			const clock = fakeClock();
			sandbox = await startSandbox({ rateLimit: 1, now: () => 0 });
			const context = contextFor(sandbox.url);
			await send(context, createRoom, 0, { clock });
			const rateLimit = { maxRetries: 10, maxTotalWaitMs: 2500, fallbackDelayMs: 1000, minDelayMs: 1000 };
			const error = await failureOf(send(context, createRoom, 0, { clock, policy: { rateLimit } }));
			expect(error.httpCode).toBe('429');
			expect(clock.sleeps).toEqual([1000, 1000]);
			expect(error.description).toMatch(/^The platform asked to wait 1 s more, beyond the 2\.5 s the node waits for one item\. /);
		});
	});
});

describe('PlatformClient sends a request once, whatever the answer: only a 429 goes again', () => {
	let server: Awaited<ReturnType<typeof scriptedServer>>;
	afterEach(async () => await server?.stop());

	it.each<[string, ScriptedAnswer]>([
		['HTTP 422', 422],
		['HTTP 501', 501],
		['HTTP 503', 503],
		['a lost answer', 'reset'],
	])('is not sent again after %s', async (_, answer) => {
		server = await scriptedServer([answer]);
		await failureOf(send(contextFor(server.url), createRoom, 0));
		expect(server.paths).toEqual(['/v1/rooms']);
	});

	it.each<[string, ScriptedAnswer]>([
		['a server error', 503],
		['a lost answer', 'reset'],
	])('says after %s that it was not sent again, since the room may exist', async (_, answer) => {
		server = await scriptedServer([answer]);
		const error = await failureOf(send(contextFor(server.url), createRoom, 0));
		expect(server.paths).toEqual(['/v1/rooms']);
		expect(error.description).toMatch(/not (repeated|sent again)/);
	});

	it('is not repeated after a timeout, which already took the whole deadline', async () => {
		server = await scriptedServer(['silent']);
		const error = await failureOf(send(contextFor(server.url), createRoom, 0, { clock: fakeClock(), policy: { deadlineMs: 200 } }));
		expect(error.message).toMatch(/within 0\.2 s \(timeout\)/);
		expect(server.paths).toHaveLength(1);
	});

	it('keeps "check the Base URL" as the meaning of a 404', async () => {
		server = await scriptedServer([404]);
		const error = await failureOf(send(contextFor(server.url), createRoom, 0));
		expect(error.description).toContain("Check the credential's Base URL");
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


describe('namingItem', () => {
	it('ends any message with the item it is about', () => {
		fc.assert(fc.property(anyText(), fc.nat(10_000), (message, itemIndex) => expect(namingItem(message, itemIndex)).toBe(`${message} [item ${itemIndex}]`)));
	});
});

describe('itemError', () => {
	it("is the node's own error for the item: its message names the item, n8n gets the item index and the advice", () => {
		fc.assert(
			fc.property(anyText({ minLength: 1 }), anyText({ minLength: 1 }), fc.nat(10_000), (message, description, itemIndex) => {
				const error = itemError(itemNode, itemIndex, message, description);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error.message).toBe(`${message} [item ${itemIndex}]`);
				expect(error.description).toBe(description);
				expect(error.context.itemIndex).toBe(itemIndex);
			}),
		);
	});
});

/** An answer with an error status and this body, as n8n's client hands it over. */
const errorStatus = (statusCode: number, body: string): CraftedAnswer => ({ statusCode, headers: {}, body });

/** A redirect to `location`. */
const redirect = (statusCode: number, location: string): CraftedAnswer => ({ statusCode, headers: { location }, body: '' });

/** A 2xx answer whose body stops before its end. */
const cutOff = (): CraftedAnswer => ({ statusCode: 201, headers: {}, body: new Readable({ read() { this.destroy(); } }) });

/** The URL a Room → Create goes to. */
const roomsUrl = (at: RoomCreateAt) => `${at.baseUrl}${createRoom.path}`;

describe('error mapping', () => {
	it.each([
		[400, /rejected the request \(HTTP 400\): name is too long/, /Check this item/],
		[422, /rejected the request \(HTTP 422\): name is too long/, /Check this item/],
		[401, /rejected the API key \(HTTP 401\)/, /check the API key/],
		[403, /not allowed to do this \(HTTP 403\)/, /lacks permission/],
		[404, /Nothing was found at https:\/\/video.example.com\/v1\/rooms \(HTTP 404\)/, /Base URL/],
		[431, /refused the request headers as too large \(HTTP 431\)/, /API key may be too long/],
		[500, /server error \(HTTP 500\)/, /not repeated/],
		[503, /server error \(HTTP 503\)/, /may have processed it/],
		[409, /answered HTTP 409/, /not repeated/],
	])('maps HTTP %p to a message that says what happened and what to do', async (status, message, hint) => {
		const error = await createRoomFailureOn(errorStatus(status, JSON.stringify({ message: 'name is too long' })));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(message);
		expect(error.message).toMatch(/\[item 2\]$/);
		expect(error.description).toMatch(hint);
		expect(error.httpCode).toBe(String(status));
		expect(error.context.itemIndex).toBe(2);
	});

	it('quotes nothing where the platform gave no words: the message ends at the status', async () => {
		const error = await createRoomFailureOn(errorStatus(422, ''));
		expect(error.message).toBe('The platform rejected the request (HTTP 422) [item 2]');
		expect(error.description).toBe("Check this item's values against the platform's message above.");
		// n8n shows these in the error's details: the URL and message, as clean as the message itself.
		expect(error.errorResponse).toEqual({ httpCode: '422', url: 'https://video.example.com/v1/rooms', message: 'The platform rejected the request (HTTP 422)' });
		expect(error.messages).toEqual(['The platform rejected the request (HTTP 422)']);
	});

	it('removes the key when the platform echoes it', async () => {
		const error = await createRoomFailureOn(errorStatus(400, JSON.stringify({ message: 'bad header Bearer sk_live_secret' })));
		expect(error.message).toContain('Bearer [redacted]');
		expect(JSON.stringify(error)).not.toContain('sk_live_secret');
	});
});

/** Every string reachable from a value: own properties, enumerable or not (stack, cause, ...), at any depth. */
function stringsIn(root: unknown): string[] {
	const found: string[] = [];
	const seen = new Set<object>();
	const visit = (value: unknown): void => {
		if (typeof value === 'string') found.push(value);
		if (value === null || typeof value !== 'object' || seen.has(value)) return;
		seen.add(value);
		for (const name of Object.getOwnPropertyNames(value)) visit((value as Record<string, unknown>)[name]);
	};
	visit(root);
	return found;
}

const percentDecoded = (text: string) =>
	text.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const jsonUnescaped = (text: string) =>
	text.replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(["\\/])/g, '$1');

/** Whether the key is in the text as sent, percent-encoded or JSON-escaped, in any letter case. */
function revealsKey(text: string, key: string): boolean {
	const forms = [text, percentDecoded(text), jsonUnescaped(text), percentDecoded(jsonUnescaped(text)), jsonUnescaped(percentDecoded(text))];
	return forms.some((form) => form.toLowerCase().includes(key.toLowerCase()));
}

function expectKeyNowhereIn(error: unknown, key: string) {
	const strings = stringsIn(error);
	expect(strings.length).toBeGreaterThan(5);
	expect(strings.filter((text) => revealsKey(text, key))).toEqual([]);
}

const htmlPage: CraftedAnswer = { statusCode: 200, headers: { 'content-type': 'text/html' }, body: '<html></html>' };

describe('the key appears in no property of an error, in no form', () => {
	const KEY = 'sk_Live_"q"\\/<t>{x}% 9~';
	const percentEach = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
	const echoes = [
		KEY,
		KEY.toUpperCase(),
		encodeURIComponent(KEY),
		encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		percentEach,
		`{"echo":${JSON.stringify(KEY)}}`,
		`not json: ${JSON.stringify(KEY).replace(/\//g, '\\/')}`,
		`Authorization: Bearer ${KEY}`,
	];
	// The Base URL is typed by the user, who may have pasted the key into it.
	const hostile: RoomCreateAt = { ...failed, secret: KEY, baseUrl: `https://video.example.com/${encodeURIComponent(KEY)}` };
	const location = `https://evil.example/${encodeURIComponent(KEY)}/v1/rooms?key=${encodeURIComponent(KEY)}`;

	it.each([400, 401, 403, 404, 409, 431, 500])('HTTP %p, whatever the platform echoes', async (status) => {
		for (const echo of echoes) {
			expectKeyNowhereIn(await createRoomFailureOn(errorStatus(status, echo), hostile), KEY);
			expectKeyNowhereIn(await createRoomFailureOn(errorStatus(status, JSON.stringify({ message: echo, error: { detail: echo } })), hostile), KEY);
		}
	});

	it.each<[string, () => Promise<NodeApiError>]>([
		['a redirect to where the key is in the path', async () => await createRoomFailureOn(redirect(302, location), hostile)],
		['a redirect to the Base URL itself', async () => await createRoomFailureOn(redirect(301, `${roomsUrl(hostile)}/`), hostile)],
		['a timeout', async () => await createRoomFailureOn({ throws: { code: 'ETIMEDOUT' } }, hostile, { policy: { deadlineMs: 1000 } })],
		['a refused connection', async () => await createRoomFailureOn({ throws: { code: 'ECONNREFUSED' } }, hostile)],
		['a reset', async () => await createRoomFailureOn({ throws: { cause: { code: 'ECONNRESET' } } }, hostile)],
		['a cut-off answer', async () => await createRoomFailureOn(cutOff(), hostile)],
		['an answer too large', async () => await createRoomFailureOn({ statusCode: 201, headers: {}, body: Buffer.alloc(1025) }, hostile, { policy: { maxAnswerBytes: 1024 } })],
		['an HTML page', async () => await createRoomFailureOn(htmlPage, hostile)],
	])('%s', async (_label, make) => {
		expectKeyNowhereIn(await make(), KEY);
	});

	it("through n8n-core's real client, when the platform echoes the path the Base URL holds the key in", async () => {
		const sandbox = await startSandbox({ apiKey: KEY });
		try {
			const error = await createRoomFailure(`${sandbox.url}/${encodeURIComponent(KEY)}`, undefined, KEY);
			expect(error.httpCode).toBe('404');
			expectKeyNowhereIn(error, KEY);
		} finally {
			await sandbox.stop();
		}
	});
});

// The node refuses keys shorter than 8 characters before sending (credentials.test): these are keys it takes.
describe("a key that is a word of the node's never garbles the node's own words", () => {
	const local: RoomCreateAt = { ...failed, baseUrl: 'http://127.0.0.1:8787' };
	const builders: Array<(at: RoomCreateAt) => Promise<NodeApiError>> = [
		...[400, 401, 403, 404, 409, 431, 500].map((status) => async (at: RoomCreateAt) => await createRoomFailureOn(errorStatus(status, ''), at)),
		async (at) => await createRoomFailureOn({ throws: { code: 'ETIMEDOUT' } }, at, { policy: { deadlineMs: 1000 } }),
		async (at) => await createRoomFailureOn({ throws: { code: 'ECONNREFUSED' } }, at),
		async (at) => await createRoomFailureOn(redirect(307, 'https://127.0.0.1:8787/v1/rooms'), at),
		async (at) => await createRoomFailureOn(htmlPage, at),
	];

	it.each(['platform', 'Platform', 'the platform', 'Base URL', 'the API key', 'credential'])('with the key %p', async (key) => {
		for (const build of builders) {
			const withShortKey = await build({ ...local, secret: key });
			const withOtherKey = await build({ ...local, secret: 'sk_not_in_any_text_0000' });
			expect([withShortKey.message, withShortKey.description]).toEqual([withOtherKey.message, withOtherKey.description]);
			expect(withShortKey.message).not.toContain('[redacted]');
		}
	});
});

describe('outside text carries no markup into any error', () => {
	// The charset as a Content-Type carries it (the node reads up to a closing quote); the prefix names no charset.
	const outsideFailures = (text: string, status: number): Array<[string, CraftedAnswer]> => [
		['an error status quoting the platform', errorStatus(status, JSON.stringify({ message: text }))],
		['an error status with a plain-text body', errorStatus(status, text)],
		['a redirect', redirect(300 + (status % 100), text)],
		['a redirect to a data: address', redirect(303, `data:text/html,${text}/v1/rooms`)],
		["n8n's outbound protection", { throws: new SsrfBlockedHostnameError(text) }],
		['a Content-Encoding', { statusCode: 200, headers: { 'content-encoding': text }, body: '{}' }],
		['a charset', { statusCode: 200, headers: { 'content-type': `application/json; charset="label-${text}"` }, body: '{}' }],
	];

	it('in the message, the description and the details, whatever the platform, n8n or the Base URL says', async () => {
		// A 429 is sent again, never quoted; a Base URL with @, ? or # is refused before sending (credentials.test).
		const status = fc.integer({ min: 400, max: 599 }).filter((code) => code !== 429);
		await fc.assert(
			fc.asyncProperty(outsideTextWithMarkup, status, fc.string({ unit: 'binary', maxLength: 30 }), async (text, status, path) => {
				// The Base URL is the user's, but its path may hold anything too.
				const baseUrl = `https://video.example.com/${encodeURI(path.replace(/[\uD800-\uDFFF@?#]/g, ''))}<b>`;
				const at = { ...failed, baseUrl };
				for (const [, answer] of outsideFailures(text, status)) {
					const error = await createRoomFailureOn(answer, at);
					const shown = [error.message, error.description ?? '', JSON.stringify(error.context ?? {})];
					expect(shown.filter((part) => ANGLE_BRACKETS.test(part))).toEqual([]);
				}
			}),
			{ numRuns: 200 },
		);
	});

	it.each(outsideFailures(MARKUP_EXAMPLES[0], 400))('%s shows the markup as text', async (_label, answer) => {
		const error = await createRoomFailureOn(answer);
		expect(`${error.message} ${error.description}`).not.toMatch(ANGLE_BRACKETS);
	});

	it('a quoted 400 shows what the platform said, with look-alike brackets', async () => {
		const error = await createRoomFailureOn(errorStatus(400, JSON.stringify({ message: `Title ${MARKUP_EXAMPLES[1]} is too long` })));
		expect(error.message).toBe('The platform rejected the request (HTTP 400): Title \u2039img src="https://evil.example/track.png"\u203A is too long [item 2]');
	});
});

describe('the Base URL a redirect suggests', () => {
	const REDIRECTS = [301, 302, 307, 308];
	const advice = async (location: string, status = 301, from: RoomCreateAt = failed) => (await createRoomFailureOn(redirect(status, location), from)).description ?? '';
	const plainly = (description: string) => /(?:^|\. )Use (\S+) as the Base URL/.exec(description)?.[1];

	it.each(REDIRECTS)('HTTP %p from https:// to http:// on the same host: no http:// address, and why', async (status) => {
		const description = await advice('http://video.example.com/v1/rooms', status);
		expect(description).not.toMatch(/use http:\/\//i);
		expect(description).toContain('The redirect leads from https:// to http://, over which the API key would travel unencrypted, so no address is suggested from it.');
		expect(description).toContain("Check the Base URL in the Video Platform API credential: it should be the platform's API address itself.");
	});

	it('suggests no Base URL for a redirect to another path, or to the very address the request went to', async () => {
		const check = "Check the Base URL in the Video Platform API credential: it should be the platform's API address itself.";
		for (const location of ['https://video.example.com/api/v2/sessions', 'https://video.example.com/v1/rooms']) {
			const description = await advice(location);
			expect(description).toContain(check);
			expect(plainly(description)).toBeUndefined();
			expect(description).not.toMatch(/use \S+ as the Base URL/i);
		}
	});

	it('says where a redirect leads: nowhere valid for a blank Location, a scheme for one that is not a web address', async () => {
		expect((await createRoomFailureOn(redirect(301, '   '))).message).toMatch(/ without a valid address to go to,/);
		expect((await createRoomFailureOn(redirect(301, 'javascript:alert(1)'))).message).toMatch(/ to a javascript: address, not a web address,/);
	});

	it('to the same origin: says only that redirects are never followed, since that origin did get the request', async () => {
		expect(await advice('https://video.example.com/api/v1/rooms')).toMatch(/The node never follows redirects, so that the API key goes only to the Base URL's address\.$/);
	});

	it('HTTP 301 from https:// to http:// on another host: no http:// address either', async () => {
		expect(await advice('http://other.example/v1/rooms')).toMatch(/^The redirect leads from https:\/\/ to http:\/\/.* Check the Base URL/);
	});

	it.each(REDIRECTS)('HTTP %p to another port on the same host: only if it is the platform\'s API', async (status) => {
		expect(await advice('https://video.example.com:8443/api/v1/rooms', status)).toContain(
			"If https://video.example.com:8443 is your platform's API, use https://video.example.com:8443/api as the Base URL in the Video Platform API credential.",
		);
		const local = { ...failed, baseUrl: 'http://127.0.0.1:8787' };
		expect(await advice('http://127.0.0.1:9999/v1/rooms', status, local)).toContain("If http://127.0.0.1:9999 is your platform's API, use http://127.0.0.1:9999 as");
	});

	it('plainly on the same origin, and for the https form of an http:// Base URL', async () => {
		expect(plainly(await advice('https://video.example.com/api/v1/rooms'))).toBe('https://video.example.com/api');
		const plain = { ...failed, baseUrl: 'http://video.example.com' };
		expect(plainly(await advice('https://video.example.com/v1/rooms', 301, plain))).toBe('https://video.example.com');
		expect(plainly(await advice('http://video.example.com/api/v1/rooms', 301, plain))).toBe('http://video.example.com/api');
	});

	it('never suggests an http:// address for an https:// Base URL, and plainly only its own origin, whatever the Location', async () => {
		const location = fc
			.tuple(
				fc.constantFrom('http', 'https', 'HTTP', 'Https'),
				fc.constantFrom('video.example.com', 'VIDEO.example.com', 'other.example', '127.0.0.1', '[::1]'),
				fc.constantFrom('', ':80', ':443', ':8443'),
				anyText({ maxLength: 20 }),
				fc.constantFrom('/v1/rooms', '/v1/rooms/', ''),
			)
			.map(([scheme, host, port, path, end]) => `${scheme}://${host}${port}/${path}${end}`);
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...REDIRECTS), location, async (status, to) => {
				const description = await advice(to, status);
				expect(description).not.toMatch(/use http:\/\//i);
				const suggested = plainly(description);
				if (suggested !== undefined) expect(new URL(suggested).origin).toBe('https://video.example.com');
			}),
			{ numRuns: 300 },
		);
	});
});
