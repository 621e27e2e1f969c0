import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';

import type { NodeApiError } from 'n8n-workflow';

import { PlatformClient } from '../../nodes/VideoPlatform/transport/client';
import { createExecuteContext } from '../helpers/executeContext';
import { createRoom } from '../helpers/platformClient';
import { SANDBOX_KEY } from '../helpers/sandbox';
import { handAnsweredServerForTests } from '../helpers/scriptedServer';
import { until, watchAnswers } from '../helpers/waits';

// One execution, one cancel signal, and the node run many times in it (a loop over batches):
// n8n sets no limit on that signal's listeners, so what each run leaves on it stays until the execution ends.
const server = handAnsweredServerForTests();
const answer = (next: (response: ServerResponse) => void) => server.answerWith(next);

const created = (response: ServerResponse) => response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"room-1"}');

function run(cancel: AbortSignal) {
	const context = createExecuteContext({ credentials: { baseUrl: server.url, apiKey: SANDBOX_KEY }, cancelSignal: cancel });
	return new PlatformClient(context, 'room');
}

describe("the node's runs in one execution", () => {
	it('leave no listener on the execution cancel signal once they are over', async () => {
		answer(created);
		const cancel = new AbortController();
		for (let i = 0; i < 12; i++) await run(cancel.signal).request(createRoom, 0);
		expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(0);
	});

	it('one run of a thousand requests has at most one listener on it, and none once they are over', async () => {
		answer(created);
		const cancel = new AbortController();
		const client = run(cancel.signal);
		let most = 0;
		const sampling = setInterval(() => (most = Math.max(most, getEventListeners(cancel.signal, 'abort').length)), 1);
		for (let batch = 0; batch < 20; batch++) {
			await Promise.all(Array.from({ length: 50 }, async (_, i) => await client.request(createRoom, batch * 50 + i)));
		}
		clearInterval(sampling);
		expect(most).toBeLessThanOrEqual(1);
		expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(0);
		// About 2 s alone; jest's default 5 s cut it on a loaded machine (a from-nothing run with other work beside it).
	}, 60_000);
});

describe('the user stops the execution while requests wait for their headers', () => {
	it('ends them all at once as stopped while answering, and leaves no listener', async () => {
		let arrived = 0;
		answer(() => arrived++);
		const cancel = new AbortController();
		const client = run(cancel.signal);
		const pending = Array.from({ length: 40 }, async (_, i) =>
			await client.request(createRoom, i).then(() => 'answered', (error: NodeApiError) => error.message),
		);
		await until(() => arrived === 40);
		const stoppedAt = Date.now();
		cancel.abort();
		const messages = await Promise.all(pending);
		expect(Date.now() - stoppedAt).toBeLessThan(1000);
		for (const message of messages) expect(message).toMatch(/^The execution was stopped while/);
		expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(0);
	});
});

describe('the user stops the execution while the body streams in', () => {
	it('ends the item at once as stopped while answering', async () => {
		answer((response) => response.writeHead(201, { 'content-type': 'application/json' }).write('{"id":'));
		const answers = watchAnswers();
		const cancel = new AbortController();
		const client = run(cancel.signal);
		const pending = client.request(createRoom, 3).then(
			() => 'answered',
			(error: NodeApiError) => error.message,
		);
		// The body has started: the answer's headers reached the client before the stop.
		await answers.arrived(201);
		answers.stop();
		const stoppedAt = Date.now();
		cancel.abort();
		const message = await pending;
		expect(Date.now() - stoppedAt).toBeLessThan(1000);
		expect(message).toMatch(/stopped while/);
		expect(message).toMatch(/\[item 3\]$/);
	});
});
