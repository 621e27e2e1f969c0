import type { INodePropertyOptions } from 'n8n-workflow';

import * as create from './create.operation';

export const resource: INodePropertyOptions = { name: 'Room', value: 'room' };

export const operations = { create };
