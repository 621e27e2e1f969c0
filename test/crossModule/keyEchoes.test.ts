import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';
import type { NodeApiError } from 'n8n-workflow';

import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { KEY_REMOVED_MARKER } from '../../nodes/VideoPlatform/shared/secretTraces';
import { MAX_API_KEY_LENGTH } from '../../nodes/VideoPlatform/shared/credentials';
import { createExecuteContext } from '../helpers/executeContext';
import { apiKeyWith, invisibleCharacter, keyWithIs, showsRunOf, spreadWith } from '../helpers/keyTraces';
import { createRoom, createRoomFailure } from '../helpers/platformClient';

/** A platform that answers with the status and body the test makes from the key it was sent. */
let answer: (key: string) => { status: number; body: string; type?: string };
let server: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
	server = createServer((req, res) => {
		requests++;
		const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
		const { status, body, type = 'application/json' } = answer(key);
		res.writeHead(status, { 'content-type': type });
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise((resolve) => server.close(resolve)));

/**
 * Keys as a header carries them: visible ASCII from 8 characters to a JWT with many claims, keys
 * with spaces and characters special to regular expressions, JSON and URLs, and keys whose i and
 * I Turkish casing changes.
 */
const apiKey = fc.oneof(
	fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 8, maxLength: 4000 }),
	apiKeyWith(8, 64),
	keyWithIs,
);

/** Names and texts of a JSON value, each as a person would read it on its own. */
function textsIn(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([name, inner]) => [name, ...textsIn(inner)]);
}

const showsKeyIn = (value: unknown, key: string) => textsIn(value).some((text) => showsRunOf(text, key));

/** What an error shows anywhere: message, description, and what n8n keeps of it. */
const shownBy = (error: NodeApiError): unknown =>
	JSON.parse(JSON.stringify({ ...error, message: error.message, description: error.description }));

const ECHOES: Array<[string, (key: string) => string]> = [
	['the key', (key) => key],
	['its first 12 characters', (key) => `${key.slice(0, 12)}...`],
	['the key masked in the middle', (key) => `${key.slice(0, 10)}****${key.slice(-10)}`],
	['the key percent-encoded', encodeURIComponent],
	['the key in base64', (key) => Buffer.from(`Bearer ${key}`).toString('base64')],
	['the key as HTML entities', (key) => [...key].map((c) => `&#${c.charCodeAt(0)};`).join('')],
	['the key with zero-width spaces inside', (key) => [...key].join('\u200b')],
	['the key with U+E0100 between its characters', (key) => spreadWith(key, ['\u{E0100}'])],
	['the key with a byte-order mark after every 7 characters', (key) => spreadWith(key, ['', '', '', '', '', '', '\uFEFF'])],
	['the key upper-cased in a German message', (key) => `Ungültiger Schlüssel ${key.toUpperCase()}`],
	['the key in Turkish upper case', (key) => key.toLocaleUpperCase('tr')],
	['the key with zero-width spaces inside, percent-encoded', (key) => encodeURIComponent(spreadWith(key, ['\u200b']))],
	['the key with variation selectors inside, as HTML entities', (key) => spreadWith(key, ['&#917760;'])],
];

/** Invisible characters from the whole Default_Ignorable class, 1 or 2 in each gap of the key. */
const gapsOfInvisibles = fc.array(fc.string({ unit: invisibleCharacter, minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 12 });

describe('an error answer that echoes the key, through n8n-core’s HTTP client', () => {
	it.each(ECHOES)('shows no run of 8 characters of it when the platform quotes %s', async (_label, echo) => {
		await fc.assert(
			fc.asyncProperty(apiKey, fc.constantFrom(400, 403, 422, 500), async (key, status) => {
				fc.pre(key.trim() === key && !/^bearer/i.test(key));
				answer = (sent) => ({ status, body: JSON.stringify({ message: `invalid key ${echo(sent)}` }) });
				const error = await createRoomFailure(url, undefined, key);
				expect(error.message).toContain(`(HTTP ${status})`);
				expect(showsKeyIn(shownBy(error), key)).toBe(false);
			}),
			{ numRuns: 25 },
		);
	});

	it("shows no run of 8 characters of it when the platform quotes it with any of Unicode's default-ignorable characters inside", async () => {
		await fc.assert(
			fc.asyncProperty(apiKey, gapsOfInvisibles, async (key, gaps) => {
				fc.pre(key.trim() === key && !/^bearer/i.test(key));
				answer = (sent) => ({ status: 400, body: JSON.stringify({ message: `invalid key ${spreadWith(sent, gaps)}` }) });
				const error = await createRoomFailure(url, undefined, key);
				expect(error.message).toContain('(HTTP 400)');
				expect(showsKeyIn(shownBy(error), key)).toBe(false);
			}),
			{ numRuns: 40 },
		);
	});

	it('a key of 5,000 characters fails the item as the platform said, not with an internal error', async () => {
		// Before: the key became a regular expression too large for V8, whose error spelled it out.
		const key = `eyJ${'aB3_-x9Q'.repeat(625)}`;
		answer = (sent) => ({ status: 401, body: JSON.stringify({ message: `token ${sent} expired` }) });
		const error = await createRoomFailure(url, undefined, key);
		expect(error.message).toBe('The platform rejected the API key (HTTP 401) [item 0]');
		expect(showsKeyIn(shownBy(error), key)).toBe(false);
	});

	it(`a key longer than ${MAX_API_KEY_LENGTH} characters is refused before anything is sent, without quoting it`, async () => {
		const key = 'k'.repeat(MAX_API_KEY_LENGTH) + 'Z';
		const before = requests;
		const error = await createRoomFailure(url, undefined, key);
		expect(error.message).toBe(
			'The API key in the Video Platform API credential is longer than 16,384 characters, too long to be an API key [item 0]',
		);
		expect(JSON.stringify(shownBy(error))).not.toContain('kkkkkkkk');
		expect(requests).toBe(before);
	});
});

describe('a successful answer that echoes the key', () => {
	const send = async (key: string) =>
		await new PlatformClient(createExecuteContext({ credentials: { baseUrl: url, apiKey: key } }), 'room').request(createRoom, 0);

	it('has every trace of it replaced by a marker that says so, in names and values', async () => {
		await fc.assert(
			fc.asyncProperty(apiKey, fc.constantFrom(...ECHOES.map(([, echo]) => echo)), async (key, echo) => {
				fc.pre(key.trim() === key && !/^bearer/i.test(key));
				answer = (sent) => ({
					status: 201,
					body: JSON.stringify({ id: 'room-1', createdWith: `Bearer ${echo(sent)}`, [sent]: [{ token: sent }], name: 'Biology' }),
				});
				const { body } = await send(key);
				expect(showsKeyIn(body, key)).toBe(false);
				expect(JSON.stringify(body)).toContain(KEY_REMOVED_MARKER);
				expect(body).toMatchObject({ id: 'room-1', name: 'Biology' });
			}),
			{ numRuns: 40 },
		);
	});

	it("has the key with any of Unicode's default-ignorable characters inside replaced by the marker", async () => {
		await fc.assert(
			fc.asyncProperty(apiKey, gapsOfInvisibles, async (key, gaps) => {
				fc.pre(key.trim() === key && !/^bearer/i.test(key));
				answer = (sent) => ({ status: 201, body: JSON.stringify({ id: 'room-1', echo: `Bearer ${spreadWith(sent, gaps)}`, name: 'Biology' }) });
				const { body } = await send(key);
				expect(body).toEqual({ id: 'room-1', echo: `Bearer ${KEY_REMOVED_MARKER}`, name: 'Biology' });
			}),
			{ numRuns: 40 },
		);
	});

	it('the example of the issue: "createdWith": "Bearer <key>"', async () => {
		const key = 'sk_live_9f8e7d6c5b4a3928';
		answer = (sent) => ({ status: 201, body: JSON.stringify({ id: 'room-1', createdWith: `Bearer ${sent}` }) });
		expect((await send(key)).body).toEqual({ id: 'room-1', createdWith: `Bearer ${KEY_REMOVED_MARKER}` });
	});

	it('a text answer, and a number that spells the key', async () => {
		const key = '12345678901234';
		answer = (sent) => ({ status: 200, body: `made with ${sent}`, type: 'text/plain' });
		expect((await send(key)).body).toBe(`made with ${KEY_REMOVED_MARKER}`);
		answer = (sent) => ({ status: 200, body: `{"id":"room-1","n":${sent}}` });
		expect((await send(key)).body).toEqual({ id: 'room-1', n: KEY_REMOVED_MARKER });
	});

	it('an answer without the key is passed through unchanged', async () => {
		const room = { id: 'room-1', name: 'Biology', type: 'conference', size: 12, tags: ['a', { b: null }] };
		answer = () => ({ status: 201, body: JSON.stringify(room) });
		expect((await send('sk_live_9f8e7d6c5b4a3928')).body).toEqual(room);
	});
});
