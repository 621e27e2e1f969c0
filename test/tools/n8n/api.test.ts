import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { endedWithRunData, waitForExecutions } from '../../../tools/n8n/api';

const withRunData = { resultData: { runData: { Trigger: [{}] } } };
const asStarted = { resultData: { runData: {} } };

describe('endedWithRunData', () => {
	it('is an ended execution whose run data holds a node, or an error', () => {
		expect(endedWithRunData({ status: 'success', data: withRunData })).toBe(true);
		expect(endedWithRunData({ status: 'error', data: { resultData: { runData: {}, error: { message: 'x' } } } })).toBe(true);
	});

	it("is not one still running, nor an ended one read before n8n 1.x stored its run data", () => {
		expect(endedWithRunData({ status: 'running', data: withRunData })).toBe(false);
		expect(endedWithRunData({ status: 'new', data: withRunData })).toBe(false);
		expect(endedWithRunData({ status: 'success', data: asStarted })).toBe(false);
	});
});

describe('waitForExecutions', () => {
	it('waits past an execution that reads as ended before its run data is stored', async () => {
		const answers = [asStarted, asStarted, withRunData];
		let reads = 0;
		const server = http.createServer((_request, response) => {
			const data = answers[Math.min(reads++, answers.length - 1)];
			response.setHeader('Content-Type', 'application/json');
			response.end(JSON.stringify({ data: [{ id: '1', status: 'success', data }], nextCursor: null }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const [execution] = await waitForExecutions(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'key', 'wf', { timeoutMs: 10_000 });
			expect(execution.data).toEqual(withRunData);
			expect(reads).toBe(3);
		} finally {
			server.close();
		}
	});
});
