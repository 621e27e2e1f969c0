import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { createExecuteContext } from '../helpers/executeContext';
import {
	createRoom,
	createRoomFailure as createRoomAt,
	MAY_HAVE_CREATED_ROOM as MAY_HAVE,
} from '../helpers/platformClient';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';

const escaped = (text: string) => text.replace(/[.;]/g, '\\$&');

// Each test starts the sandbox it needs.
let sandbox: Sandbox;
afterEach(async () => await sandbox.stop());

describe('answers after the request arrived: the room may exist, and it is not sent again', () => {

	it('a 201 cut off mid-body', async () => {
		sandbox = await startSandbox({ fault: 'cut-off' });
		const error = await createRoomAt(sandbox.url);
		expect(error.message).toBe("The platform's answer (HTTP 201) was cut off before its end [item 0]");
		expect(error.description).toBe(MAY_HAVE);
		expect(sandbox.state.rooms).toHaveLength(1);
		expect(sandbox.state.counts.total).toBe(1);
	});

	it('a connection reset instead of the answer', async () => {
		sandbox = await startSandbox({ fault: 'reset' });
		const error = await createRoomAt(sandbox.url);
		expect(error.message).toBe(
			`The connection to ${sandbox.url} broke before an answer came: the connection was reset [item 0]`,
		);
		expect(error.description).toBe(MAY_HAVE);
		expect(sandbox.state.counts.total).toBe(1);
	});

	it('an answer that trickles in fails at the deadline, like a silent one', async () => {
		sandbox = await startSandbox({ fault: 'trickle', faultIntervalMs: 20, faultDurationMs: 10_000 });
		const started = Date.now();
		const error = await createRoomAt(sandbox.url, { policy: { deadlineMs: 400 } });
		expect(Date.now() - started).toBeLessThan(2000);
		expect(error.message).toBe(`No complete answer from ${sandbox.url} within 0.4 s (timeout) [item 0]`);
		expect(error.description).toBe(MAY_HAVE);
		expect(sandbox.state.counts.total).toBe(1);
	});

	it('an answer larger than the cap', async () => {
		sandbox = await startSandbox({ fault: 'oversized', faultSizeBytes: 3 * 1024 * 1024 });
		const error = await createRoomAt(sandbox.url, { policy: { maxAnswerBytes: 1024 * 1024 } });
		expect(error.message).toBe(
			"The platform's answer (HTTP 201) is larger than 1 MB, the most the node accepts [item 0]",
		);
		expect(error.description).toMatch(new RegExp(`^${escaped(MAY_HAVE)} An answer this large`));
	});

	it('a small gzip answer that inflates far beyond the cap is not inflated into memory', async () => {
		sandbox = await startSandbox({ fault: 'gzip-bomb', faultSizeBytes: 256 * 1024 * 1024 });
		const before = process.memoryUsage().rss;
		const error = await createRoomAt(sandbox.url);
		expect(error.message).toBe(
			"The platform's answer (HTTP 201) is larger than 10 MB, the most the node accepts [item 0]",
		);
		expect(process.memoryUsage().rss - before).toBeLessThan(128 * 1024 * 1024);
	});
});

describe('answers that are not the API', () => {

	it('a 2xx HTML page', async () => {
		sandbox = await startSandbox({ fault: 'html' });
		const error = await createRoomAt(sandbox.url);
		expect(error.message).toBe(
			"The Base URL seems to be a web page, not the platform's API: it answered HTTP 200 with an HTML page [item 0]",
		);
		// Whatever is at the Base URL answered 2xx to the POST, so it may have passed it on.
		expect(error.description).toMatch(new RegExp(`^${escaped(MAY_HAVE)} Check the credential's Base URL`));
		expect(sandbox.state.counts.total).toBe(1);
	});
});

describe('2xx answers that cannot be decoded fail the item: the room may exist', () => {
	const couldNotDecode = "The platform's answer (HTTP 201) could not be decoded";

	it.each([
		['gzip-stacked', 'its Content-Encoding is "gzip, gzip", which the node cannot read'],
		['unknown-encoding', 'its Content-Encoding is "x-custom", which the node cannot read'],
		['gzip-corrupt', 'its compressed body is damaged'],
		// n8n's client inflates what arrived without noticing the missing end.
		['gzip-truncated', 'it is labelled JSON but is not valid JSON'],
		['json-invalid', 'it is labelled JSON but is not valid JSON'],
	])('%p', async (fault, why) => {
		sandbox = await startSandbox({ fault });
		const error = await createRoomAt(sandbox.url);
		expect(error.message).toBe(`${couldNotDecode}: ${why} [item 0]`);
		expect(error.description).toBe(MAY_HAVE);
		expect(error.httpCode).toBe('201');
		expect(sandbox.state.rooms).toHaveLength(1);
		expect(sandbox.state.counts.total).toBe(1);
	});

	it('JSON after a UTF-8 byte-order mark is read as JSON', async () => {
		sandbox = await startSandbox({ fault: 'json-bom' });
		const context = createExecuteContext({ credentials: { baseUrl: sandbox.url, apiKey: SANDBOX_KEY } });
		const response = await new PlatformClient(context, 'room').request(createRoom, 0);
		expect(response.body).toMatchObject({ name: 'Biology', type: 'conference', fault: 'json-bom' });
	});
});

describe('the credential is checked before anything is sent', () => {
	beforeEach(async () => (sandbox = await startSandbox()));

	it('a key the header cannot carry names the credential', async () => {
		const error = await createRoomAt(sandbox.url, undefined, 'sk_clé_test');
		expect(error.message).toBe(
			'The API key in the Video Platform API credential has characters that an HTTP header cannot carry [item 0]',
		);
		expect(JSON.stringify(error)).not.toContain('sk_clé_test');
		expect(sandbox.state.requests).toEqual([]);
	});

	it('a Base URL with user:password@ is refused without showing the password', async () => {
		const error = await createRoomAt(sandbox.url.replace('://', '://admin:hunter2@'));
		expect(error.message).toBe(
			"The credential's Base URL has a user name or password in it (…@ before the host) [item 0]",
		);
		expect(JSON.stringify([error, error.description])).not.toContain('hunter2');
		expect(sandbox.state.requests).toEqual([]);
	});

	it.each(['?tenant=1', '#rooms', '/v1?x'])('a Base URL ending in %p is refused', async (tail) => {
		const error = await createRoomAt(`${sandbox.url}${tail}`);
		expect(error.message).toBe("The credential's Base URL has a query (?…) or a fragment (#…) in it [item 0]");
		expect(sandbox.state.requests).toEqual([]);
	});
});
