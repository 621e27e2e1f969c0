import type { INodeProperties } from 'n8n-workflow';

import { readKeysToForget, readOncePerKey } from '../../../../../../nodes/VideoPlatform/actions/room/oncePerKey/option';
import { VideoPlatform } from '../../../../../../nodes/VideoPlatform/VideoPlatform.node';
import { createExecuteContext } from '../../../../../helpers/executeContext';

const { properties } = new VideoPlatform().description;

const credentials = { baseUrl: 'https://video.example.com', apiKey: 'sk_option_secret' };
const read = (options: unknown) => readOncePerKey.call(createExecuteContext({ credentials, parameters: { options } }));
const keysToForget = (value: unknown) => readKeysToForget.call(createExecuteContext({ credentials, parameters: { options: { createOncePerKey: { settings: { keysToForget: value } } } } }));

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

	it("shows Keys to Forget only with Mode Forget These Items' Keys, and reads it as one key per line", () => {
		const roomOptions = properties.find((p) => p.name === 'options' && p.displayOptions?.show?.resource?.[0] === 'room') as INodeProperties;
		const option = (roomOptions.options as INodeProperties[]).find((o) => o.name === 'createOncePerKey') as unknown as { options: Array<{ values: INodeProperties[] }> };
		const field = option.options[0].values.find((f) => f.name === 'keysToForget');
		expect(field?.displayOptions).toEqual({ show: { mode: ['forgetKeys'] } });
		expect(keysToForget(undefined)).toEqual([]);
		expect(keysToForget(' \n ')).toEqual([]);
		expect(keysToForget('Café-1\r\nMath 2')).toEqual(['Café-1', 'Math 2']);
	});

	it('refuses Keys to Forget that is not text, forgetting nothing', () => {
		expect(() => keysToForget(['Math'])).toThrow('Keys to Forget must be text, one key per line');
	});

	it('refuses settings n8n would not store, as Drop Redelivered does', () => {
		expect(() => read({ createOncePerKey: { settings: { scope: 'everywhere' } } })).toThrow('Remember Keys For must be This Node or Whole Workflow, not "everywhere"');
		expect(() => read({ createOncePerKey: { settings: { keysRemembered: 0 } } })).toThrow(/^Keys Remembered must be a whole number from 1 to 100000/);
	});
});
