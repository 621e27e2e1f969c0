import fc from 'fast-check';

import { handleDelivery } from '../../nodes/VideoPlatform/trigger/webhook';
import { apiKeyWith, invisibleCharacter, showsRunOf, spreadWith, unicodeText } from '../helpers/keyTraces';
import { createWebhookContext } from '../helpers/webhookContext';

jest.mock('../../nodes/VideoPlatform/platform', () => jest.requireActual<typeof import('../helpers/publishedEventKinds')>('../helpers/publishedEventKinds').platformModule());

/**
 * The trigger's webhook secret echoed back by a delivery (cross-module: the trigger's delivery
 * handling and the shared redaction), with characters that show nothing slipped between its own.
 */
describe('Video Platform Trigger: a webhook secret echoed with invisible characters inside (cross-module: trigger and redaction)', () => {
	const generatedSecret = apiKeyWith(8, 64).filter((value) => value.trim() === value);
	const gaps = fc.array(invisibleCharacter, { minLength: 1, maxLength: 4 });

	it('shows no run of 8 of its characters, whatever invisible characters of the whole Unicode class sit between them, in a full-Unicode delivery', async () => {
		await fc.assert(
			fc.asyncProperty(generatedSecret, gaps, unicodeText(30), unicodeText(30), async (value, between, before, after) => {
				fc.pre(!showsRunOf(`${before} ${after}`, value));
				const echoed = spreadWith(value, between);
				const payload = { id: 'd1', note: `${before}${echoed}${after}` };
				const { context } = createWebhookContext({
					body: payload,
					rawBody: JSON.stringify(payload),
					headers: { 'x-webhook-secret': value, 'x-copy': echoed },
					query: { s: echoed },
					parameters: { authentication: 'secretHeader' },
					secret: { headerName: 'X-Webhook-Secret', secret: value },
				});
				const items = (await handleDelivery.call(context)).workflowData?.[0] ?? [];
				expect(items).toHaveLength(1);
				expect(showsRunOf(JSON.stringify(items[0].json), value)).toBe(false);
			}),
			{ numRuns: 80 },
		);
	});
});
