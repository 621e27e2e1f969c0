import fc from 'fast-check';

import { headerMatches, MinimalTrigger } from '../../../tools/bench/minimal-trigger/MinimalTrigger.node';

const SECRET = 'bench-secret';

/** A webhook context with just what the minimal trigger reads, and the status it answered with. */
function context(authentication: string, headers: Record<string, string>, body: unknown) {
	const answered: { status?: number } = {};
	const ctx = {
		getNodeParameter: () => authentication,
		getCredentials: async () => ({ headerName: ' X-Secret ', secret: SECRET }),
		getHeaderData: () => headers,
		getBodyData: () => body,
		getResponseObject: () => ({ status: (status: number) => ((answered.status = status), { json: () => undefined }) }),
	};
	return { ctx, answered };
}

const run = (ctx: unknown) => new MinimalTrigger().webhook.call(ctx as never);

describe("the trigger bench's minimal trigger", () => {
	it('starts the workflow with the body as its one item when nothing is checked', async () => {
		const { ctx } = context('none', {}, { id: 'evt_1' });
		await expect(run(ctx)).resolves.toEqual({ webhookResponse: { received: true }, workflowData: [[{ json: { id: 'evt_1' } }]] });
	});

	it('lets in a delivery whose header, named as the credential says (trimmed, any case), carries the secret', async () => {
		const { ctx, answered } = context('secretHeader', { 'x-secret': ` ${SECRET} ` }, { id: 'evt_2' });
		await expect(run(ctx)).resolves.toMatchObject({ workflowData: [[{ json: { id: 'evt_2' } }]] });
		expect(answered.status).toBeUndefined();
	});

	it('answers 401 and starts nothing when the header is wrong or missing', async () => {
		for (const headers of [{ 'x-secret': 'other' }, {}] as Array<Record<string, string>>) {
			const { ctx, answered } = context('secretHeader', headers, {});
			await expect(run(ctx)).resolves.toEqual({ noWebhookResponse: true });
			expect(answered.status).toBe(401);
		}
	});

	it('is above version 1, as the package trigger is', () => {
		expect(new MinimalTrigger().description.version).toBeGreaterThan(1);
	});
});

describe("the minimal trigger's header check", () => {
	it('matches exactly the secret, spaces around either side aside', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary', minLength: 1 }), fc.string({ unit: 'binary' }), (secret, provided) => {
				fc.pre(secret.trim() !== '');
				expect(headerMatches(` ${secret}\t`, secret)).toBe(true);
				expect(headerMatches(provided, secret)).toBe(provided.trim() === secret.trim());
			}),
		);
	});

	it('never matches an empty secret or a header that is not text', () => {
		expect(headerMatches('', '')).toBe(false);
		expect(headerMatches('  ', ' ')).toBe(false);
		expect(headerMatches(undefined, SECRET)).toBe(false);
		expect(headerMatches([SECRET], SECRET)).toBe(false);
	});
});
