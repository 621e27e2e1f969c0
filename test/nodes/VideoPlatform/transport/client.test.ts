import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { PlatformClient } from '../../../../nodes/VideoPlatform/transport/client';
import type { PlatformRequest } from '../../../../nodes/VideoPlatform/transport/client';
import { createExecuteContext } from '../../../helpers/executeContext';
import type { ClientOptions } from '../../../helpers/platformClient';
import { createRoom, createRoomFailure, MAY_HAVE_CREATED_ROOM } from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { fakeClock, SANDBOX_KEY, startLockedOutSandbox, startSandbox } from '../../../helpers/sandbox';
import type { ScriptedAnswer } from '../../../helpers/scriptedServer';
import { scriptedServer } from '../../../helpers/scriptedServer';

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
async function send(context: IExecuteFunctions, request: PlatformRequest, itemIndex: number, options?: ClientOptions) {
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
			const until = async (condition: () => boolean) => {
				for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
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
