import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';
import type { NodeApiError } from 'n8n-workflow';

import { PlatformClient } from '../../../../nodes/VideoPlatform/transport';
import { KEY_REMOVED_MARKER } from '../../../../nodes/VideoPlatform/transport/platformText';
import { MAX_API_KEY_LENGTH } from '../../../../nodes/VideoPlatform/shared/apiKey';
import { createExecuteContext } from '../../../helpers/executeContext';
import { createRoom, createRoomFailure } from '../../../helpers/platformClient';

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

/** Visible ASCII, as a header carries it, from 8 characters to a JWT with many claims. */
const apiKey = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 8, maxLength: 4000 });

function holdsRunOf(text: string, key: string): boolean {
	const folded = text.toLowerCase();
	for (let i = 0; i + 8 <= key.length; i++) if (folded.includes(key.slice(i, i + 8).toLowerCase())) return true;
	return false;
}

/** What an error shows anywhere: message, description, and what n8n keeps of it. */
const shownBy = (error: NodeApiError) => JSON.stringify({ ...error, message: error.message, description: error.description });

const ECHOES: Array<[string, (key: string) => string]> = [
	['the key', (key) => key],
	['its first 12 characters', (key) => `${key.slice(0, 12)}...`],
	['the key masked in the middle', (key) => `${key.slice(0, 10)}****${key.slice(-10)}`],
	['the key percent-encoded', encodeURIComponent],
	['the key in base64', (key) => Buffer.from(`Bearer ${key}`).toString('base64')],
	['the key as HTML entities', (key) => [...key].map((c) => `&#${c.charCodeAt(0)};`).join('')],
	['the key with zero-width spaces inside', (key) => [...key].join('\u200b')],
];

describe('an error answer that echoes the key, through n8n-core’s HTTP client', () => {
	it.each(ECHOES)('shows no run of 8 characters of it when the platform quotes %s', async (_label, echo) => {
		await fc.assert(
			fc.asyncProperty(apiKey, fc.constantFrom(400, 403, 422, 500), async (key, status) => {
				fc.pre(key.trim() === key && !/^bearer/i.test(key));
				answer = (sent) => ({ status, body: JSON.stringify({ message: `invalid key ${echo(sent)}` }) });
				const error = await createRoomFailure(url, undefined, key);
				expect(error.message).toContain(`(HTTP ${status})`);
				expect(holdsRunOf(shownBy(error), key)).toBe(false);
			}),
			{ numRuns: 25 },
		);
	});

	it('a key of 5,000 characters fails the item as the platform said, not with an internal error', async () => {
		// Before: the key became a regular expression too large for V8, whose error spelled it out.
		const key = `eyJ${'aB3_-x9Q'.repeat(625)}`;
		answer = (sent) => ({ status: 401, body: JSON.stringify({ message: `token ${sent} expired` }) });
		const error = await createRoomFailure(url, undefined, key);
		expect(error.message).toBe('The platform rejected the API key (HTTP 401) [item 0]');
		expect(holdsRunOf(shownBy(error), key)).toBe(false);
	});

	it(`a key longer than ${MAX_API_KEY_LENGTH} characters is refused before anything is sent, without quoting it`, async () => {
		const key = 'k'.repeat(MAX_API_KEY_LENGTH) + 'Z';
		const before = requests;
		const error = await createRoomFailure(url, undefined, key);
		expect(error.message).toBe(
			'The API key in the Video Platform API credential is longer than 16,384 characters, too long to be an API key [item 0]',
		);
		expect(shownBy(error)).not.toContain('kkkkkkkk');
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
				expect(holdsRunOf(JSON.stringify(body), key)).toBe(false);
				expect(JSON.stringify(body)).toContain(KEY_REMOVED_MARKER);
				expect(body).toMatchObject({ id: 'room-1', name: 'Biology' });
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
