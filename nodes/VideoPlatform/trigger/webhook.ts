import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { IncomingDelivery } from './delivery';
import { deliveryItem, payloadOf } from './delivery';
import { bodySha256Of, deliveryKeyOf } from './deliveryKey';
import { eventMatches, fieldMatches, parseAllowedValues } from './filter';
import { secretMatches } from './secret';

export const SECRET_CREDENTIAL = 'videoPlatformWebhookApi';

interface TriggerOptions {
	deliveryIdField?: string;
	filterField?: string;
	filterValues?: string;
}

/** Acknowledged without starting an execution, so that the platform does not redeliver. */
function acknowledge(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}

async function rejectUnlessAuthentic(this: IWebhookFunctions): Promise<string[] | 'rejected'> {
	if (this.getNodeParameter('authentication', 'none') !== 'secretHeader') return [];
	const { headerName, secret } = await this.getCredentials<{ headerName: string; secret: string }>(
		SECRET_CREDENTIAL,
	);
	const name = String(headerName).trim().toLowerCase();
	if (secretMatches(this.getHeaderData()[name], secret)) return [name];
	this.getResponseObject()
		.status(401)
		.json({ received: false, message: `Missing or wrong secret in the ${headerName} header` });
	return 'rejected';
}

/** Handles one delivery: authenticity and filters, then the item with its delivery key. */
export async function handleDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const hiddenHeaders = await rejectUnlessAuthentic.call(this);
	if (hiddenHeaders === 'rejected') return { noWebhookResponse: true };

	const request = this.getRequestObject() as unknown as { body: unknown; rawBody?: Buffer };
	const delivery: IncomingDelivery = {
		parsedBody: request.body,
		rawBody: request.rawBody,
		headers: this.getHeaderData() as IDataObject,
		query: this.getQueryData() as IDataObject,
	};
	const payload = payloadOf(delivery);
	const options = this.getNodeParameter('options', {}) as TriggerOptions;

	if (!eventMatches(payload, String(this.getNodeParameter('event', '*')))) return acknowledge('event');
	if (!fieldMatches(payload, options.filterField ?? '', parseAllowedValues(options.filterValues ?? ''))) {
		return acknowledge('filtered');
	}
	// No duplicate is dropped here: on n8n 2.x static data changed in webhook() is not saved, and
	// in queue mode webhook() runs on webhook processors. The key lets the Redelivery Filter node,
	// whose keys n8n keeps in its database, do it.
	const bodySha256 = bodySha256Of(delivery.rawBody);
	const key = deliveryKeyOf(payload, String(options.deliveryIdField ?? ''), bodySha256);
	const json = deliveryItem(delivery, hiddenHeaders, new Date().toISOString(), { bodySha256, ...key });
	return {
		webhookResponse: { received: true, started: true },
		workflowData: [[{ json }]],
	};
}
