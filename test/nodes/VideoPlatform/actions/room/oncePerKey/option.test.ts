import type { INodeProperties } from 'n8n-workflow';

import { properties } from '../../../../../../nodes/VideoPlatform/actions/properties';
import { readOncePerKey } from '../../../../../../nodes/VideoPlatform/actions/room/oncePerKey/option';
import { createExecuteContext } from '../../../../../helpers/executeContext';

const credentials = { baseUrl: 'https://video.example.com', apiKey: 'sk_option_secret' };
const read = (options: unknown) => readOncePerKey.call(createExecuteContext({ credentials, parameters: { options } }));

describe('Create Once Per Key: the option', () => {
	it("is one of Room → Create's Options, in alphabetical order, and absent until added", () => {
		const roomOptions = properties.find((p) => p.name === 'options' && p.displayOptions?.show?.resource?.[0] === 'room') as INodeProperties;
		expect((roomOptions.options as INodeProperties[]).map((o) => o.displayName)).toEqual(['Create Once Per Key', 'Max Concurrent Requests']);
		expect(roomOptions.default).toEqual({});
	});

	it('left out, the run reads nothing more: the node works as before', () => {
		expect(read({})).toBeUndefined();
		expect(read({ maxConcurrentRequests: 3 })).toBeUndefined();
	});

	it("added, defaults to Create Once Per Key for this node, and Drop Redelivered's defaults", () => {
		expect(read({ createOncePerKey: { settings: { key: 'k' } } })).toEqual({ mode: 'create', scope: 'node', maxEntries: 10_000 });
		expect(read({ createOncePerKey: { settings: { key: 'k', mode: 'forgetAll', scope: 'workflow', keysRemembered: 50 } } })).toEqual({
			mode: 'forgetAll',
			scope: 'workflow',
			maxEntries: 50,
		});
	});

	it('refuses settings n8n would not store, as Drop Redelivered does', () => {
		expect(() => read({ createOncePerKey: { settings: { scope: 'everywhere' } } })).toThrow('Remember Keys For must be This Node or Whole Workflow, not "everywhere"');
		expect(() => read({ createOncePerKey: { settings: { keysRemembered: 0 } } })).toThrow(/^Keys Remembered must be a whole number from 1 to 100000/);
	});
});
