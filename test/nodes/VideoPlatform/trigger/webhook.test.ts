import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import fc from 'fast-check';

import { MAX_BODY_BYTES } from '../../../../nodes/VideoPlatform/trigger/body';
import { handleDelivery } from '../../../../nodes/VideoPlatform/trigger/webhook';
import type { WebhookContextOptions } from '../../../helpers/webhookContext';
import { apiKeyWith, showsRunOf, unicodeText } from '../../../helpers/keyTraces';
import { anyCodePoint, anyText } from '../../../helpers/unicode';
import { createWebhookContext } from '../../../helpers/webhookContext';
import { publishEventKindField } from '../../../helpers/publishedEventKinds';

jest.mock('../../../../nodes/VideoPlatform/platform', () => jest.requireActual<typeof import('../../../helpers/publishedEventKinds')>('../../../helpers/publishedEventKinds').platformModule());

/** What replaces the webhook secret in the output (docs/trigger.md, Authentication; docs/security.md). */
const SECRET_REMOVED_MARKER = '[webhook secret removed by the trigger]';

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
			bodySha256: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
			deliveryKey: expect.stringMatching(/^body:/),
			deliveryKeySource: 'body',
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

		it("leaves the secret's header out of _webhook.headers, as docs/trigger.md says, and keeps the others", async () => {
			const { json } = await deliver({
				...withSecret,
				body: { id: 'd1' },
				headers: { 'x-webhook-secret': secret.secret, 'x-other': 'kept' },
			});
			const { headers } = json?._webhook as { headers: IDataObject };
			expect(headers).not.toHaveProperty('x-webhook-secret');
			expect(headers['x-other']).toBe('kept');
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

		it("finds the secret's header when the credential's Header Name has spaces around it", async () => {
			const { started, json } = await deliver({
				parameters: { authentication: 'secretHeader' },
				secret: { ...secret, headerName: `  ${secret.headerName} ` },
				body: { id: 'd1' },
				headers: { 'x-webhook-secret': secret.secret },
			});
			expect(started).toBe(true);
			expect((json?._webhook as { headers: IDataObject }).headers).not.toHaveProperty('x-webhook-secret');
		});

		it.each([
			['a secret of only spaces, with the header blank too', { ...secret, secret: '   ' }, ' '],
			['a header name that is not an HTTP token', { ...secret, headerName: 'X Webhook Secret' }, secret.secret],
			['a secret a header cannot carry', { ...secret, secret: 'sécret-value' }, 'sécret-value'],
			['an empty header name', { ...secret, headerName: ' ' }, secret.secret],
		])('refuses every delivery with 500 when the saved credential has %s, and says nothing of it', async (_label, saved, sent) => {
			const { started, answered, result } = await deliver({
				parameters: { authentication: 'secretHeader' },
				secret: saved,
				body: { id: 'd1' },
				headers: { 'x-webhook-secret': sent, [saved.headerName.trim().toLowerCase()]: sent },
			});
			expect(started).toBe(false);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(answered).toEqual({
				status: 500,
				body: { received: false, message: 'The delivery could not be checked.' },
			});
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
			expect(answered).toEqual({ status: 401, body: { received: false, message: 'The delivery was not authenticated.' } });
		});
	});

	// Which fields match which values: filter.test.ts.
	it('starts nothing for a delivery the filter leaves out, and tells the platform it arrived', async () => {
		const filter = { options: { filterField: 'data.status', filterValues: 'started, ended' } };
		expect((await deliver({ parameters: filter, body: { data: { status: 'ended' } } })).started).toBe(true);
		const { started, result } = await deliver({ parameters: filter, body: { data: { status: 'paused' } } });
		expect(started).toBe(false);
		expect(result.webhookResponse).toEqual({ received: true, started: false, reason: 'filtered' });
	});

	describe('Trigger On, once the platform publishes event kinds', () => {
		beforeEach(() => publishEventKindField('event.kind'));
		afterEach(() => publishEventKindField(undefined));
		const body = { event: { kind: 'room.started' } };

		it('starts a delivery of the kind chosen, and acknowledges one of another kind without starting it', async () => {
			expect((await deliver({ parameters: { event: 'room.started' }, body })).started).toBe(true);
			const { started, result } = await deliver({ parameters: { event: 'room.ended' }, body });
			expect(started).toBe(false);
			expect(result.webhookResponse).toEqual({ received: true, started: false, reason: 'event' });
		});

		it('lets every delivery through when Trigger On has no value, as in a workflow saved before it had one', async () => {
			expect((await deliver({ parameters: { event: undefined }, body })).started).toBe(true);
		});
	});

	describe('deeply nested JSON', () => {
		const nested = (levels: number, wrap: (inner: unknown) => unknown) => {
			let value: unknown = 'd1';
			for (let i = 0; i < levels; i++) value = wrap(value);
			return value;
		};
		const inList = (inner: unknown) => [inner];
		const inObject = (inner: unknown) => ({ a: inner });
		const tooDeep = {
			status: 400,
			body: {
				received: false,
				message: 'The delivery is JSON nested more than 100 levels deep, more than the trigger accepts. Nothing was started.',
			},
		};

		it.each([
			['lists, as the id', inList, { options: { deliveryIdField: 'id' } }],
			['objects, as the id', inObject, { options: { deliveryIdField: 'id' } }],
			['lists, without an id field set', inList, {}],
			['objects, in a field the filter reads', inObject, { options: { filterField: 'id.a.a', filterValues: 'x' } }],
		])('100,000 levels of %s: a clear 400, no crash, nothing started', async (_label, wrap, parameters) => {
			const body = { id: nested(100_000, wrap) };
			const { answered, started, result } = await deliver({ parameters, body });
			expect(started).toBe(false);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(answered).toEqual(tooDeep);
		});

		it('also when only the raw body holds the JSON, as n8n leaves a text/plain body', async () => {
			const rawBody = `{"id":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
			const { answered, started } = await deliver({ parameters: { options: { deliveryIdField: 'id' } }, rawBody });
			expect(started).toBe(false);
			expect(answered).toEqual(tooDeep);
		});

		it('refuses one level more than it accepts', async () => {
			const { answered } = await deliver({ body: { id: nested(100, inObject) } });
			expect(answered).toEqual(tooDeep);
		});

		it('keys an id nested 100 levels deep, the most it accepts, as before', async () => {
			const id = nested(99, inObject);
			const body = { id };
			const { json, started } = await deliver({ parameters: { options: { deliveryIdField: 'id' } }, body });
			expect(started).toBe(true);
			const canonical = `${'{"a":'.repeat(99)}"d1"${'}'.repeat(99)}`;
			expect((json?._webhook as IDataObject).deliveryKey).toBe(`id:${createHash('sha256').update(canonical).digest('hex')}`);
		});
	});

	describe('delivery key', () => {
		const byId = { options: { deliveryIdField: 'id' } };
		const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

		it('gives every item the raw body digest and a key from the id field, and keeps nothing itself', async () => {
			const staticData = {};
			const rawBody = '{"id":"a","n":1}';
			const first = await deliver({ parameters: byId, staticData, body: JSON.parse(rawBody), rawBody });
			const again = await deliver({ parameters: byId, staticData, body: JSON.parse(rawBody), rawBody });
			expect(first.json?._webhook).toMatchObject({ bodySha256: sha256(rawBody), deliveryKeySource: 'id' });
			expect((again.json?._webhook as IDataObject).deliveryKey).toBe((first.json?._webhook as IDataObject).deliveryKey);
			// Dropping is Drop Redelivered's job: the trigger starts both and remembers nothing.
			expect([first.started, again.started]).toEqual([true, true]);
			expect(staticData).toEqual({});
		});

		it('keys by the raw body when no id field is set', async () => {
			const rawBody = '{"id":"a"}';
			const { json } = await deliver({ body: JSON.parse(rawBody), rawBody });
			expect(json?._webhook).toMatchObject({
				bodySha256: sha256(rawBody),
				deliveryKey: `body:${sha256(rawBody)}`,
				deliveryKeySource: 'body',
			});
		});

		it('says when n8n kept no raw body, and then keys the delivery so that it matches nothing', async () => {
			const { json } = await deliver({ body: { id: 'a' } });
			expect(json?._webhook).toMatchObject({ bodySha256: null, deliveryKeySource: 'none' });
		});

		it('never gives a delivery without its id a key shared with another delivery', async () => {
			const keys = [];
			for (const body of [{ other: 1 }, { other: 1 }, { id: '' }, { id: {} }]) {
				const { json } = await deliver({ parameters: byId, body, rawBody: JSON.stringify(body) });
				expect((json?._webhook as IDataObject).deliveryKeySource).toBe('none');
				keys.push((json?._webhook as IDataObject).deliveryKey);
			}
			expect(new Set(keys).size).toBe(4);
		});
	});
});

describe('Video Platform Trigger fails closed', () => {
	const body = { id: 'd1' };
	const deliverWith = async (authentication: unknown, headers: IDataObject = {}) =>
		await deliver({ body, rawBody: JSON.stringify(body), headers, parameters: { authentication: authentication as IDataObject[string] }, secret });

	it('refuses every delivery, naming the option, when Authentication is anything but None or Shared Secret Header', async () => {
		const near = ['SecretHeader', 'secretHeader ', ' none', 'None', 'Shared Secret Header', 'true', '', 'secret', 'NONE'];
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(fc.constantFrom<unknown>(...near, true, false, 0, 1, null, [], {}, ['none']), anyText(), fc.anything({ stringUnit: anyCodePoint })),
				fc.boolean(),
				async (authentication, withHeader) => {
					// The mocked context, like n8n for a missing value, gives the default for undefined (and null).
					fc.pre(authentication !== 'none' && authentication !== 'secretHeader' && authentication != null);
					const { started, answered } = await deliverWith(authentication, withHeader ? { 'x-webhook-secret': secret.secret } : {});
					expect(started).toBe(false);
					expect(answered.status).toBe(500);
					expect(answered.body).toEqual({
						received: false,
						message: "The trigger's Authentication option is neither None nor Shared Secret Header, so no delivery is let in. Set it in the workflow. Nothing was started.",
					});
				},
			),
			{ numRuns: 200 },
		);
	});

	it('checks the secret with Shared Secret Header, and lets deliveries in unchecked only with None', async () => {
		expect((await deliverWith('secretHeader')).answered.status).toBe(401);
		expect((await deliverWith('secretHeader', { 'x-webhook-secret': secret.secret })).started).toBe(true);
		expect((await deliverWith('none')).started).toBe(true);
	});

	it('hides the webhook secret wherever else the delivery echoes it, also in part or encoded', async () => {
		const longSecret = 'whsec_4f1c9a7e2b8d6053';
		const echoes = [longSecret, longSecret.slice(0, 10), encodeURIComponent(longSecret), Buffer.from(longSecret).toString('base64')];
		for (const echo of echoes) {
			const payload = { id: 'd1', note: `sent with ${echo}` };
			const { json } = await deliver({
				body: payload,
				rawBody: JSON.stringify(payload),
				headers: { 'x-webhook-secret': longSecret, 'x-copy': echo },
				query: { s: echo },
				parameters: { authentication: 'secretHeader' },
				secret: { headerName: 'X-Webhook-Secret', secret: longSecret },
			});
			const shown = JSON.stringify(json);
			expect(shown).not.toContain(longSecret.slice(0, 8));
			expect(shown).not.toContain(echo);
			// Base64 leaves the last digit or two it shares with what follows, and its padding.
			expect(String(json?.note)).toMatch(/^sent with \[webhook secret removed by the trigger\](w==)?$/);
			expect(json?.id).toBe('d1');
			expect(shown).toContain(SECRET_REMOVED_MARKER);
			expect((json?._webhook as IDataObject).deliveryKeySource).toBe('body');
		}
	});
});

describe('Video Platform Trigger: generated secrets and deliveries', () => {
	/** Secrets as a platform issues them: visible ASCII with spaces and characters special to regular expressions, JSON and URLs inside. */
	const generatedSecret = apiKeyWith(8, 64).filter((value) => value.trim() === value);

	it('lets in the secret as set, refuses it in another letter case or with a character more, and shows no run of 8 of its characters wherever a full-Unicode delivery echoes it', async () => {
		await fc.assert(
			fc.asyncProperty(generatedSecret, unicodeText(30), unicodeText(30), async (value, before, after) => {
				fc.pre(!showsRunOf(`${before} ${after}`, value));
				const options = { parameters: { authentication: 'secretHeader' }, secret: { headerName: 'X-Webhook-Secret', secret: value } };
				const payload = { id: 'd1', note: `${before}${value}${after}`, encoded: encodeURIComponent(value) };
				const delivery = { body: payload, rawBody: JSON.stringify(payload), query: { s: value }, ...options };

				const letIn = await deliver({ ...delivery, headers: { 'x-webhook-secret': value, 'x-copy': value.toUpperCase() } });
				expect(letIn.started).toBe(true);
				const shown = JSON.stringify(letIn.json);
				expect(showsRunOf(shown, value)).toBe(false);
				expect(shown).toContain(SECRET_REMOVED_MARKER);

				const recased = value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase();
				for (const wrong of [`${value}x`, ...(recased === value ? [] : [recased])]) {
					const refused = await deliver({ ...delivery, headers: { 'x-webhook-secret': wrong } });
					expect(refused.started).toBe(false);
					expect(refused.answered.status).toBe(401);
				}
			}),
			{ numRuns: 80 },
		);
	});
});

describe('Video Platform Trigger: no delivery lost to number rounding', () => {
	/** As n8n hands a JSON delivery over: parsed by JSON.parse (rounded), and the raw bytes. */
	const deliverText = async (raw: string, options: IDataObject) =>
		await deliver({ body: JSON.parse(raw) as unknown, rawBody: raw, parameters: { options } });
	const bigId = fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n - 1n });

	it('gives two deliveries whose id text differs two keys, and the same text the same key', async () => {
		await fc.assert(
			fc.asyncProperty(bigId, fc.bigInt({ min: 1n, max: 4096n }), fc.constantFrom('id', 'meta.id'), async (id, step, field) => {
				const body = (value: bigint) => (field === 'id' ? `{"id": ${value}}` : `{"meta": {"id": ${value}}, "x": 1}`);
				const key = async (value: bigint) => ((await deliverText(body(value), { deliveryIdField: field })).json?._webhook as IDataObject);
				const [first, other, again] = [await key(id), await key(id + step), await key(id)];
				expect(first.deliveryKeySource).toBe('id');
				expect(first.deliveryKey).not.toBe(other.deliveryKey);
				expect(first.deliveryKey).toBe(again.deliveryKey);
				expect(first.deliveryId).toBe(String(id));
			}),
			{ numRuns: 100 },
		);
	});

	it('matches a filter value typed as the field was sent', async () => {
		await fc.assert(
			fc.asyncProperty(bigId, fc.constantFrom('string', 'list', 'number'), async (id, form) => {
				const filterValues = form === 'string' ? `other, ${id}` : form === 'list' ? ['other', String(id)] : String(id);
				const { started, answered } = await deliverText(`{"data": {"roomId": ${id}}}`, { filterField: 'data.roomId', filterValues });
				expect(answered.status).toBeUndefined();
				expect(started).toBe(true);
				// JavaScript's rounded text of the number is another number than the one sent.
				const rounded = String(Number(id));
				if (rounded !== String(id)) {
					expect((await deliverText(`{"data": {"roomId": ${id}}}`, { filterField: 'data.roomId', filterValues: rounded })).started).toBe(false);
				}
			}),
			{ numRuns: 100 },
		);
	});

	it('keeps the ids and filters of ordinary deliveries as they were', async () => {
		const { json } = await deliverText('{"id": 42, "status": 1.5}', { deliveryIdField: 'id', filterField: 'status', filterValues: '1.5' });
		expect(json?._webhook).toMatchObject({ deliveryKey: `id:${createHash('sha256').update('42').digest('hex')}`, deliveryId: '42' });
		expect((await deliverText('{"id": "evt-1"}', { deliveryIdField: 'id' })).json?._webhook).toMatchObject({ deliveryId: 'evt-1' });
		expect((await deliverText('{"n": 7}', { filterField: 'n', filterValues: 7 })).started).toBe(true);
	});

	// Which values each option takes: options.test.ts.
	it('refuses every delivery, naming the option, when an option is neither text nor a list of values', async () => {
		const { answered, started } = await deliverText('{"id": 1, "status": "started"}', { filterValues: { started: true } });
		expect(started).toBe(false);
		expect(answered).toEqual({
			status: 500,
			body: {
				received: false,
				message: "The trigger's option Has One Of These Values is neither text nor a list of values, so no delivery is let in. Fix it in the workflow. Nothing was started.",
			},
		});
	});
});

// From version 1.1 n8n leaves the bodies it does not parse unread (trigger/body.ts).
describe('a body n8n left unread', () => {
	const withoutTime = (json: IDataObject | undefined) => ({ ...json, _webhook: { ...(json?._webhook as IDataObject), receivedAt: 'x' } });

	const byId = { options: { deliveryIdField: 'id' } };
	it.each([
		['binary bytes', 'application/octet-stream', Buffer.from([0x7b, 0x00, 0xff, 0xc3, 0x28]), {}],
		['JSON of a +json type, keyed by its id', 'application/vnd.platform+json', Buffer.from('{"id":12345678901234567891,"kind":"x"}'), byId],
		['JSON without a Content-Type', undefined, Buffer.from('{"id":"d1"}'), {}],
	])('makes of %s the item version 1 made of it, where n8n had read it', async (_label, contentType, bytes, parameters) => {
		const headers = contentType ? { 'content-type': contentType } : {};
		const read = await deliver({ headers, parameters, rawBody: bytes });
		const unread = await deliver({ headers, parameters, unread: bytes });
		expect(unread.started).toBe(true);
		expect(withoutTime(unread.json)).toEqual(withoutTime(read.json));
		expect((unread.json?._webhook as IDataObject).bodySha256).toBe(createHash('sha256').update(bytes).digest('hex'));
	});

	it(`refuses one over ${MAX_BODY_BYTES / 1024 / 1024} MiB with a 413 and starts nothing`, async () => {
		const { answered, started } = await deliver({ unread: Buffer.alloc(MAX_BODY_BYTES + 1) });
		expect(started).toBe(false);
		expect(answered).toEqual({
			status: 413,
			body: { received: false, message: "The delivery's body is larger than 16 MiB, more than the trigger reads. Nothing was started." },
		});
	});

	it('refuses one that is not the gzip its Content-Encoding says with a 400, and starts nothing', async () => {
		const { answered, started } = await deliver({ headers: { 'content-encoding': 'gzip' }, unread: 'not gzip' });
		expect(started).toBe(false);
		expect(answered.status).toBe(400);
		expect(JSON.stringify(answered.body)).toContain('Nothing was started.');
	});

	it('is read only once the delivery is let in: a wrong secret gets its 401 unread', async () => {
		const { answered } = await deliver({ ...withSecret, headers: { 'x-webhook-secret': 'wrong' }, unread: Buffer.alloc(MAX_BODY_BYTES + 1) });
		expect(answered.status).toBe(401);
	});
});

// n8n decodes a JSON body with the Content-Type's charset (`rawBody.toString(request.encoding)`,
// n8n's middlewares/body-parser), and 2.x drops a leading byte-order mark (1.x answers 422 to one).
describe('Video Platform Trigger: a body in any charset n8n reads, exactly', () => {
	const BYTE_ORDER_MARK = '\ufeff';
	/** Labels as n8n lower-cases them that Node's Buffer decodes (n8n answers 422 to others). */
	const charsets = [
		{ labels: ['utf-8', 'utf8'], bom: true, wide: true },
		{ labels: ['utf-16le', 'utf16le', 'ucs2', 'ucs-2'], bom: true, wide: true },
		{ labels: ['latin1', 'binary'], bom: false, wide: false },
	];
	const latin1Text = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 20 });
	/** A body, its charset label and byte-order mark, and two ids beyond 2^53 that JSON.parse rounds to one number. */
	const cases = fc
		.record({
			charset: fc.constantFrom(...charsets),
			labelIndex: fc.nat(),
			withBom: fc.boolean(),
			id: fc.bigInt({ min: 2n ** 60n, max: 2n ** 63n }),
			wideNote: anyText({ maxLength: 20 }),
			narrowNote: latin1Text,
			spaces: fc.constantFrom('', ' ', '\n\t'),
		})
		.map(({ charset, labelIndex, withBom, id, wideNote, narrowNote, spaces }) => ({
			label: charset.labels[labelIndex % charset.labels.length],
			bom: charset.bom && withBom,
			ids: [id, id ^ 1n],
			note: charset.wide ? wideNote : narrowNote,
			spaces,
		}))
		.filter(({ ids: [a, b] }) => Number(a) === Number(b));

	const bodyOf = (id: bigint, note: string, spaces: string) => `{${spaces}"note":${spaces}${JSON.stringify(note)},"id":${spaces}${id}${spaces}}`;
	const bytesOf = (text: string, label: string, bom: boolean) => Buffer.from(`${bom ? BYTE_ORDER_MARK : ''}${text}`, label as BufferEncoding);
	/** n8n's parse of a JSON body: decoded with the charset, a leading byte-order mark dropped. */
	const parsedByN8n = (bytes: Buffer, label: string): unknown => {
		const text = bytes.toString(label as BufferEncoding);
		return JSON.parse(text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text);
	};
	const headersOf = (type: string, label: string) => ({ 'content-type': `${type}; charset=${label}` });
	const webhookOf = (json: IDataObject | undefined) => json?._webhook as IDataObject;

	it('gives two ids that differ past 2^53 two keys, each with its exact text, whatever the charset and mark', async () => {
		await fc.assert(
			fc.asyncProperty(cases, async ({ label, bom, ids, note, spaces }) => {
				const delivered = [];
				for (const id of ids) {
					const bytes = bytesOf(bodyOf(id, note, spaces), label, bom);
					const { json, started } = await deliver({
						body: parsedByN8n(bytes, label),
						rawBody: bytes,
						encoding: label,
						headers: headersOf('application/json', label),
						parameters: { options: { deliveryIdField: 'id' } },
					});
					expect(started).toBe(true);
					expect(json?.note).toBe((parsedByN8n(bytes, label) as IDataObject).note);
					expect(webhookOf(json)).toMatchObject({ deliveryKeySource: 'id', deliveryId: String(id) });
					expect(webhookOf(json).inexactFields).toBeUndefined();
					delivered.push(webhookOf(json).deliveryKey);
				}
				expect(delivered[0]).not.toBe(delivered[1]);
			}),
			{ numRuns: 150 },
		);
	});

	it('lets Only When Field through the id typed as sent, and not the other one', async () => {
		await fc.assert(
			fc.asyncProperty(cases, async ({ label, bom, ids: [id, other], note, spaces }) => {
				const bytes = bytesOf(bodyOf(id, note, spaces), label, bom);
				const sent = { body: parsedByN8n(bytes, label), rawBody: bytes, encoding: label, headers: headersOf('application/json', label) };
				expect((await deliver({ ...sent, parameters: { options: { filterField: 'id', filterValues: `x, ${id}` } } })).started).toBe(true);
				expect((await deliver({ ...sent, parameters: { options: { filterField: 'id', filterValues: String(other) } } })).started).toBe(false);
			}),
			{ numRuns: 100 },
		);
	});

	it('reads a +json body n8n left unread (version 1.1) in its charset too, as it reads JSON', async () => {
		await fc.assert(
			fc.asyncProperty(cases, async ({ label, bom, ids, note, spaces }) => {
				const keys = [];
				for (const id of ids) {
					const bytes = bytesOf(bodyOf(id, note, spaces), label, bom);
					const { json } = await deliver({
						unread: bytes,
						encoding: label,
						headers: headersOf('application/vnd.platform+json', label),
						parameters: { options: { deliveryIdField: 'id', filterField: 'id', filterValues: String(id) } },
					});
					expect(json).toMatchObject({ note: (parsedByN8n(bytes, label) as IDataObject).note });
					expect(webhookOf(json).deliveryId).toBe(String(id));
					keys.push(webhookOf(json).deliveryKey);
				}
				expect(keys[0]).not.toBe(keys[1]);
			}),
			{ numRuns: 60 },
		);
	});

	it('reads a JSON list or number body exactly under `body`, as the payload has it', async () => {
		const [id, other] = [12345678901234567891n, 12345678901234567890n];
		for (const [text, field] of [[`[{"id":${id}}]`, 'body.0.id'], [`${id}`, 'body']]) {
			const bytes = Buffer.from(text, 'utf16le');
			const { json } = await deliver({ body: parsedByN8n(bytes, 'utf-16le'), rawBody: bytes, encoding: 'utf-16le', parameters: { options: { deliveryIdField: field } } });
			expect(webhookOf(json).deliveryId).toBe(String(id));
			const otherBytes = Buffer.from(text.replace(String(id), String(other)), 'utf16le');
			const again = await deliver({ body: parsedByN8n(otherBytes, 'utf-16le'), rawBody: otherBytes, encoding: 'utf-16le', parameters: { options: { deliveryIdField: field } } });
			expect(webhookOf(again.json).deliveryKey).not.toBe(webhookOf(json).deliveryKey);
		}
	});
});

describe('Video Platform Trigger: a number it cannot read as sent is never shown as exact', () => {
	// As if n8n had decoded the body in a charset the trigger was not told: its text is not the body n8n parsed.
	const unreadable = (id: bigint) => {
		const text = `{"id":${id},"n":1}`;
		return { body: JSON.parse(text) as unknown, rawBody: Buffer.from(text, 'utf16le'), headers: { 'content-type': 'application/json; charset=utf-16le' } };
	};
	const ids = fc.bigInt({ min: 2n ** 60n, max: 2n ** 63n }).map((id) => [id, id ^ 1n]).filter(([a, b]) => Number(a) === Number(b));

	it('keys such an id by the body, says so, and shows no rounded id', async () => {
		await fc.assert(
			fc.asyncProperty(ids, async ([id, other]) => {
				const [first, second] = [await deliver({ ...unreadable(id), parameters: { options: { deliveryIdField: 'id' } } }), await deliver({ ...unreadable(other), parameters: { options: { deliveryIdField: 'id' } } })];
				for (const { json } of [first, second]) {
					expect(json?._webhook).toMatchObject({ deliveryKeySource: 'body', inexactFields: ['id'] });
					expect(json?._webhook).not.toHaveProperty('deliveryId');
				}
				expect((first.json?._webhook as IDataObject).deliveryKey).not.toBe((second.json?._webhook as IDataObject).deliveryKey);
			}),
			{ numRuns: 50 },
		);
	});

	it('lets such a field through Only When Field when a value typed is that number, saying so; drops it when none is', async () => {
		await fc.assert(
			fc.asyncProperty(ids, async ([id]) => {
				const typed = await deliver({ ...unreadable(id), parameters: { options: { filterField: 'id', filterValues: String(id) } } });
				expect(typed.started).toBe(true);
				expect((typed.json?._webhook as IDataObject).inexactFields).toEqual(['id']);
				const otherNumber = await deliver({ ...unreadable(id), parameters: { options: { filterField: 'id', filterValues: String(id * 2n) } } });
				expect(otherNumber.started).toBe(false);
			}),
			{ numRuns: 50 },
		);
	});

	it('names a field typed with spaces around it without them', async () => {
		const [id] = fc.sample(ids, 1)[0];
		const { json } = await deliver({ ...unreadable(id), parameters: { options: { deliveryIdField: ' id ', filterField: '  id', filterValues: String(id) } } });
		expect((json?._webhook as IDataObject).inexactFields).toEqual(['id', 'id']);
	});

	it('keeps ordinary numbers as they were: a whole number within 2^53 is exact as parsed', async () => {
		const { json } = await deliver({ body: { id: 42, n: 1 }, rawBody: Buffer.from('{"id":42,"n":1}', 'utf16le'), parameters: { options: { deliveryIdField: 'id' } } });
		expect(json?._webhook).toMatchObject({ deliveryKeySource: 'id', deliveryId: '42' });
		expect((json?._webhook as IDataObject).inexactFields).toBeUndefined();
	});
});

describe('Video Platform Trigger: work bounded by a delivery’s size, however deeply it nests', () => {
	const long = JSON.stringify('x'.repeat(2_000_000));
	const nested = `${'{"a":'.repeat(99)}${long}${'}'.repeat(99)}`;
	const parameters = { options: { deliveryIdField: 'id', filterField: 'kind', filterValues: 'k' } };
	/** The fastest of three deliveries of this id: the comparison is of two readings in one process, never a time. */
	const fastest = async (id: string, withRawBody: boolean) => {
		const raw = `{"kind":"k","id":${id}}`;
		const times = [];
		for (let run = 0; run < 3; run++) {
			const start = performance.now();
			const { started } = await deliver({ parameters, body: JSON.parse(raw) as unknown, ...(withRawBody ? { rawBody: raw } : {}) });
			times.push(performance.now() - start);
			expect(started).toBe(true);
		}
		return Math.min(...times);
	};

	it.each([
		['read from the raw body', true],
		['read from the parsed body (no raw body kept)', false],
	])('an id nested 99 levels around a long string, %s, takes at most 4 times as long as the same string as a flat id', async (_label, withRawBody) => {
		await fastest(long, withRawBody);
		const flat = await fastest(long, withRawBody);
		const deep = await fastest(nested, withRawBody);
		expect(deep).toBeLessThanOrEqual(4 * flat);
	});
});
