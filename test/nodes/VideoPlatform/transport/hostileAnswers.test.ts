import { createRoomFailure as createRoomAt, MAY_HAVE_CREATED_ROOM as MAY_HAVE } from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { startSandbox } from '../../../helpers/sandbox';

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
		expect(error.description).toMatch(new RegExp(`^${MAY_HAVE.replace(/[.;]/g, '\\$&')} An answer this large`));
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
		expect(error.description).toMatch(/^Check the credential's Base URL/);
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
