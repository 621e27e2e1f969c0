import type { IHttpRequestOptions, NodeApiError } from 'n8n-workflow';

import { router } from '../../../../nodes/VideoPlatform/actions/router';
import { systemClock } from '../../../../nodes/VideoPlatform/transport/stop';
import { createExecuteContext, realHttp } from '../../../helpers/executeContext';
import { testClients } from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { SANDBOX_KEY, startLockedOutSandbox, startSandbox } from '../../../helpers/sandbox';

// Two real sandboxes behind one Base URL: "Room 0" goes to `first`, every other item to `rest`.
// What matters is which item's fate the run's error tells, so each item needs its own answer.
let first: Sandbox;
let rest: Sandbox;
afterEach(async () => {
	await first?.stop();
	await rest?.stop();
});

const names = ['Room 0', 'Room 1', 'Room 2'].map((name) => ({ json: { name } }));

function runAgainstBoth(nameOf: (i: number) => unknown, cancelSignal?: AbortSignal) {
	const context = createExecuteContext({
		credentials: { baseUrl: rest.url, apiKey: SANDBOX_KEY },
		items: names,
		cancelSignal,
		parameters: { name: nameOf, type: 'conference', options: { maxConcurrentRequests: 3 } },
	});
	const real = realHttp({ baseUrl: rest.url, apiKey: SANDBOX_KEY });
	context.helpers.httpRequestWithAuthentication = async (_type: string, options: IHttpRequestOptions, extra?: { credentialsDecrypted?: { data?: object } }) => {
		const toFirst = String(options.body).includes('"Room 0"');
		const url = toFirst ? String(options.url).replace(rest.url, first.url) : options.url;
		return await real({ ...options, url }, extra?.credentialsDecrypted?.data);
	};
	// Real time: the stop must end real waits. Pacers of its own, not the process-wide ones.
	return router.call(context, testClients(systemClock)).then(
		() => {
			throw new Error('expected the run to fail');
		},
		(error: NodeApiError) => error,
	);
}

const until = async (condition: () => boolean) => {
	for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('the error a run ends with never hides an item the platform may have acted on', () => {
	it('a stop: the item whose request was out is the error, not the items held back by a 429', async () => {
		first = await startSandbox({ latencyMs: 5000 });
		rest = await startLockedOutSandbox('20');
		const cancel = new AbortController();
		const run = runAgainstBoth((i) => names[i].json.name, cancel.signal);
		await until(() => first.state.counts.total === 1 && rest.state.counts.total === 2);
		await new Promise((resolve) => setTimeout(resolve, 100));
		cancel.abort();

		const error = await run;
		expect(error.message).toBe("The execution was stopped while this item's request was waiting for its answer [item 0]");
		expect(error.description).toMatch(/^The platform may have created the room/);
	});

	it('a failure: an item under way that then fails with a server error is named too', async () => {
		first = await startSandbox({ latencyMs: 300, errorRate: 1, errorStatus: 503 });
		rest = await startSandbox({ latencyMs: 50, errorRate: 1, errorStatus: 422 });
		const error = await runAgainstBoth((i) => names[i].json.name);

		expect(error.message).toMatch(/^The platform rejected the request \(HTTP 422\).*\[item [12]\]$/);
		expect(error.description).toContain('Also failed in this run: ');
		expect(error.description).toContain(
			'The platform had a server error (HTTP 503): Simulated error (HTTP 503). [item 0]: The request was not repeated, because the platform may have processed it.',
		);
	});
});
