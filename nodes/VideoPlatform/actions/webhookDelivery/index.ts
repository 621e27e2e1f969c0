import type { INodePropertyOptions } from 'n8n-workflow';

import * as dropRedelivered from './dropRedelivered.operation';

export const resource: INodePropertyOptions = { name: 'Webhook Delivery', value: 'webhookDelivery' };

export const operations = { dropRedelivered };
