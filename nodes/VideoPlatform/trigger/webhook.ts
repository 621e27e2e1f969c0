import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../shared/nesting';
import type { WebhookRequest } from './body';
import { BODY_TOO_LARGE, BODY_UNREADABLE, MAX_BODY_BYTES, rawBodyOf } from './body';
import type { IncomingDelivery } from './delivery';
import { bodyTextOf, deliveryItem, payloadOf } from './delivery';
import { bodySha256Of, deliveryKeyOf } from './deliveryKey';
import { eventMatches, fieldMatch } from './filter';
import { readTriggerOptions } from './options';
import { payloadJsonOf } from './rawJson';
import { AUTHENTICATION } from './choices';
import { normalizeSecret, secretCredentialProblem, secretMatches } from './secret';
import { DELIVERY_INFO_KEY } from '../shared/deliveryKey';
import { hideSecretInValue } from '../shared/secretTraces';
import { WEBHOOK_CREDENTIAL } from '../shared/credentials';

/** Acknowledged without starting an execution, so that the platform does not redeliver. */
function acknowledge(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}

/** Answers the delivery with an error itself; nothing is started. */
function refuse(context: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	context.getResponseObject().status(status).json({ received: false, message });
	return { noWebhookResponse: true };
}

/** What a delivery that passed the check hides: the secret's header, and the secret wherever else it is. */
interface Checked {
	hiddenHeaders: string[];
	secret?: string;
}

/** Where the output held the webhook secret outside its own header (a misconfigured platform may echo it). */
const SECRET_REMOVED_MARKER = '[webhook secret removed by the trigger]';

/**
 * What to hide from the output, or the refusal. The answers name neither the header nor
 * the secret to an unknown caller. A credential that fails its own Test can match no delivery:
 * 500, since the fault is the receiver's and a platform may retry it once it is fixed.
 */
async function rejectUnlessAuthentic(this: IWebhookFunctions): Promise<Checked | IWebhookResponseData> {
	const authentication: unknown = this.getNodeParameter('authentication', AUTHENTICATION.none);
	// Fails closed: only the explicit None lets deliveries in unchecked.
	if (authentication === AUTHENTICATION.none) return { hiddenHeaders: [] };
	if (authentication !== AUTHENTICATION.secretHeader) {
		return refuse(this, 500, `The trigger's Authentication option is neither None nor Shared Secret Header, so no delivery is let in. Set it in the workflow. Nothing was started.`);
	}
	const { headerName, secret } = await this.getCredentials<{ headerName: string; secret: string }>(
		WEBHOOK_CREDENTIAL.type,
	);
	if (secretCredentialProblem(headerName, secret)) return refuse(this, 500, 'The delivery could not be checked.');
	const name = String(headerName).trim().toLowerCase();
	if (secretMatches(this.getHeaderData()[name], secret)) return { hiddenHeaders: [name], secret: normalizeSecret(secret) };
	return refuse(this, 401, 'The delivery was not authenticated.');
}

/** Handles one delivery: authenticity and filters, then the item with its delivery key. */
export async function handleDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const checked = await rejectUnlessAuthentic.call(this);
	if (!('hiddenHeaders' in checked)) return checked;

	const request = this.getRequestObject() as unknown as WebhookRequest & { body: unknown };
	// Read only once the delivery is let in: from version 1.1 n8n leaves some bodies to the node.
	const rawBody = await rawBodyOf(request);
	if (rawBody === BODY_TOO_LARGE) {
		return refuse(this, 413, `The delivery's body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB, more than the trigger reads. Nothing was started.`);
	}
	if (rawBody === BODY_UNREADABLE) {
		return refuse(this, 400, `The delivery's body could not be read: the connection closed before its end, or it is not the gzip or deflate its Content-Encoding says. Nothing was started.`);
	}
	const delivery: IncomingDelivery = {
		parsedBody: request.body,
		rawBody,
		// Not checked: bodyTextOf reads a body whose charset Node does not know, or any other value, as UTF-8.
		encoding: request.encoding,
		headers: this.getHeaderData() as IDataObject,
		query: this.getQueryData() as IDataObject,
	};
	const payload = payloadOf(delivery);
	if (nestsDeeperThan(payload, MAX_NESTING_DEPTH)) {
		return refuse(
			this,
			400,
			`The delivery is JSON nested more than ${MAX_NESTING_DEPTH} levels deep, more than the trigger accepts. Nothing was started.`,
		);
	}
	const options = readTriggerOptions(this.getNodeParameter('options', {}));
	if ('unreadable' in options) {
		return refuse(
			this,
			500,
			`The trigger's option ${options.unreadable} is neither text nor a list of values, so no delivery is let in. Fix it in the workflow. Nothing was started.`,
		);
	}
	// The body's text as n8n decoded it, where ids and numbers are as the platform wrote them; read only when a field is.
	const rawJson = options.deliveryIdField || options.filterField ? payloadJsonOf(bodyTextOf(delivery)) : undefined;

	if (!eventMatches(payload, String(this.getNodeParameter('event', '*')))) return acknowledge('event');
	const filtered = fieldMatch(payload, options.filterField, options.filterValues, rawJson);
	if (filtered === 'noMatch') return acknowledge('filtered');
	// No duplicate is dropped here: on n8n 2.x static data changed in webhook() is not saved, and
	// in queue mode webhook() runs on webhook processors. The key lets Drop Redelivered, whose keys
	// n8n keeps in its database, do it.
	const bodySha256 = bodySha256Of(delivery.rawBody);
	const { deliveryId, inexact, ...key } = deliveryKeyOf(payload, options.deliveryIdField, bodySha256, rawJson);
	// Fields whose numbers the trigger could not read as sent: said, never shown as exact.
	const inexactFields = [...(inexact ? [options.deliveryIdField.trim()] : []), ...(filtered === 'inexact' ? [options.filterField.trim()] : [])];
	const more: IDataObject = { ...(deliveryId === undefined ? {} : { deliveryId }), ...(inexactFields.length > 0 ? { inexactFields } : {}) };
	const item = deliveryItem(delivery, checked.hiddenHeaders, new Date().toISOString(), more);
	const shown = checked.secret ? (hideSecretInValue(item, checked.secret, SECRET_REMOVED_MARKER) as IDataObject) : item;
	// The digest and key are the node's own, from the bytes as sent.
	const json = { ...shown, [DELIVERY_INFO_KEY]: { ...(shown[DELIVERY_INFO_KEY] as IDataObject), bodySha256, ...key } };
	return {
		webhookResponse: { received: true, started: true },
		workflowData: [[{ json }]],
	};
}
