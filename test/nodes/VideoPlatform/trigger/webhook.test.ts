import { handleDelivery } from '../../../../nodes/VideoPlatform/trigger/webhook';
import type { WebhookContextOptions } from '../../../helpers/webhookContext';
import { createWebhookContext } from '../../../helpers/webhookContext';

async function deliver(options: WebhookContextOptions) {
	const { context, answered, staticData } = createWebhookContext(options);
	const result = await handleDelivery.call(context);
	const items = result.workflowData?.[0] ?? [];
	return { result, answered, staticData, json: items[0]?.json, started: items.length > 0 };
}

const secret = { headerName: 'X-Webhook-Secret', secret: 's3cr3t-value-9f2' };
const withSecret = { parameters: { authentication: 'secretHeader' }, secret };

describe('Video Platform Trigger: one delivery', () => {
	it('puts the payload at the top level and keeps headers and query reachable', async () => {
		const body = { id: 'd1', data: { room: 'r1' } };
		const { json, result } = await deliver({
			body,
			rawBody: JSON.stringify(body),
			headers: { 'content-type': 'application/json', 'user-agent': 'platform' },
			query: { source: 'test' },
		});
		expect(json).toMatchObject({ id: 'd1', data: { room: 'r1' } });
		expect(json?._webhook).toMatchObject({
			headers: { 'content-type': 'application/json', 'user-agent': 'platform' },
			query: { source: 'test' },
			receivedAt: expect.any(String),
		});
		expect(result.webhookResponse).toEqual({ received: true, started: true });
	});

	it("cannot have its request details replaced by a payload's own _webhook member", async () => {
		const body = { id: 'd1', _webhook: { headers: { forged: 'yes' } } };
		const { json } = await deliver({ body, rawBody: JSON.stringify(body), headers: { 'user-agent': 'platform' } });
		expect(json?._webhook).toEqual({
			headers: { 'user-agent': 'platform' },
			query: {},
			receivedAt: expect.any(String),
			fromPayload: { headers: { forged: 'yes' } },
		});
		expect(json?.id).toBe('d1');
	});

	it.each([
		['empty body', undefined, '', { body: '' }],
		['plain text', {}, 'hello', { body: 'hello' }],
		['malformed JSON', {}, '{"id":', { body: '{"id":' }],
		['a JSON list', [1, 2], '[1,2]', { body: [1, 2] }],
		['a JSON string', undefined, '"x"', { body: 'x' }],
		['JSON n8n did not parse', undefined, '{"id":"d2"}', { id: 'd2' }],
		['an empty object', {}, '{}', {}],
	])('still makes an item of %s', async (_label, body, rawBody, expected) => {
		const { json, started } = await deliver({ body, rawBody });
		expect(started).toBe(true);
		expect(json).toMatchObject(expected);
	});

	describe('shared secret', () => {
		it('accepts the right secret and never outputs it', async () => {
			const { json, started } = await deliver({
				...withSecret,
				body: { id: 'd1' },
				headers: { 'x-webhook-secret': secret.secret },
			});
			expect(started).toBe(true);
			expect(JSON.stringify(json)).not.toContain(secret.secret);
		});

		it('ignores spaces around the secret, on either side', async () => {
			const { started } = await deliver({
				parameters: { authentication: 'secretHeader' },
				secret: { ...secret, secret: ` ${secret.secret} ` },
				body: { id: 'd1' },
				headers: { 'x-webhook-secret': `${secret.secret}  ` },
			});
			expect(started).toBe(true);
		});

		it('never accepts a secret of only spaces, even when the header is blank too', async () => {
			const { started, answered } = await deliver({
				parameters: { authentication: 'secretHeader' },
				secret: { ...secret, secret: '   ' },
				body: { id: 'd1' },
				headers: { 'x-webhook-secret': ' ' },
			});
			expect(started).toBe(false);
			expect(answered.status).toBe(401);
		});

		it.each([
			['wrong', 's3cr3t-value-9f3'],
			['missing', undefined],
			['shorter', 's3cr3t'],
			['longer', `${secret.secret}-and-more`],
			['empty', ''],
		])('answers 401 to a %s secret and starts nothing', async (_label, value) => {
			const headers = value === undefined ? {} : { 'x-webhook-secret': value };
			const { result, answered, started } = await deliver({ ...withSecret, body: { id: 'd1' }, headers });
			expect(started).toBe(false);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(answered.status).toBe(401);
			expect(JSON.stringify(answered.body)).not.toContain(secret.secret);
		});
	});

	describe('filter', () => {
		const filter = { options: { filterField: 'data.status', filterValues: 'started, ended' } };

		it.each([
			[{ data: { status: 'started' } }, true],
			[{ data: { status: 'ended' } }, true],
			[{ data: { status: 'paused' } }, false],
			[{ data: {} }, false],
			[{ data: { status: { nested: 1 } } }, false],
		])('%p starts the workflow: %p', async (body, expected) => {
			const { started, result } = await deliver({ parameters: filter, body });
			expect(started).toBe(expected);
			if (!expected) expect(result.webhookResponse).toEqual({ received: true, started: false, reason: 'filtered' });
		});

		it('compares numbers as text', async () => {
			const { started } = await deliver({
				parameters: { options: { filterField: 'level', filterValues: '2' } },
				body: { level: 2 },
			});
			expect(started).toBe(true);
		});
	});

	describe('duplicates', () => {
		const dedupe = { options: { duplicateIdField: 'id', duplicateWindow: 3 } };

		it('acknowledges a redelivered id without starting the workflow', async () => {
			const staticData = {};
			const first = await deliver({ parameters: dedupe, staticData, body: { id: 'a' } });
			const again = await deliver({ parameters: dedupe, staticData, body: { id: 'a' } });
			expect(first.started).toBe(true);
			expect(again.started).toBe(false);
			expect(again.result.webhookResponse).toEqual({ received: true, started: false, reason: 'duplicate' });
		});

		it('remembers only the last N ids', async () => {
			const staticData = {};
			for (const id of ['a', 'b', 'c', 'd']) await deliver({ parameters: dedupe, staticData, body: { id } });
			expect(staticData).toEqual({ recentDeliveryIds: ['b', 'c', 'd'] });
			expect((await deliver({ parameters: dedupe, staticData, body: { id: 'a' } })).started).toBe(true);
			expect((await deliver({ parameters: dedupe, staticData, body: { id: 'd' } })).started).toBe(false);
		});

		it('lets deliveries without the id field, or with an empty one, through', async () => {
			const staticData = {};
			for (const body of [{ other: 1 }, { id: '' }, { id: '  ' }, { id: '' }]) {
				expect((await deliver({ parameters: dedupe, staticData, body })).started).toBe(true);
			}
			expect(staticData).toEqual({});
		});

		it('compares object ids by value, whatever the order of their keys', async () => {
			const staticData = {};
			const started = async (id: unknown) => (await deliver({ parameters: dedupe, staticData, body: { id } })).started;
			expect(await started({ room: 1, at: 'x' })).toBe(true);
			expect(await started({ room: 2, at: 'x' })).toBe(true);
			expect(await started({ at: 'x', room: 1 })).toBe(false);
		});

		it('never reads inherited names such as constructor as an id', async () => {
			const staticData = {};
			const byConstructor = { options: { duplicateIdField: 'constructor', duplicateWindow: 3 } };
			for (const id of ['a', 'b']) {
				expect((await deliver({ parameters: byConstructor, staticData, body: { id } })).started).toBe(true);
			}
			expect(staticData).toEqual({});
		});

		it('keeps the list bounded when the window is not a number', async () => {
			const staticData = {};
			const odd = { options: { duplicateIdField: 'id', duplicateWindow: 'many' } };
			for (let id = 0; id < 1005; id++) await deliver({ parameters: odd, staticData, body: { id } });
			expect((staticData as { recentDeliveryIds: string[] }).recentDeliveryIds).toHaveLength(1000);
		});
	});
});
