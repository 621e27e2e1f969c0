import { NodeOperationError } from 'n8n-workflow';

import { platformBaseUrl, readItemKey, storedKeys } from '../../../../../../nodes/VideoPlatform/actions/room/oncePerKey/itemKeys';
import { createExecuteContext } from '../../../../../helpers/executeContext';

const contextWith = (baseUrl: string, key?: unknown) =>
	createExecuteContext({ credentials: { baseUrl, apiKey: 'sk_keys_secret' }, parameters: { options: { createOncePerKey: { settings: { key } } } } });

describe('Create Once Per Key: item keys', () => {
	it("keeps a key's created and pending entries apart, and apart per platform Base URL", () => {
		const sandbox = storedKeys('https://sandbox.example.com', 'Math');
		const real = storedKeys('https://video.example.com', 'Math');
		expect(new Set([sandbox.created, sandbox.pending, real.created, real.pending]).size).toBe(4);
	});

	it('takes the Base URL written one way: the forms a user pastes for one platform give the same text', async () => {
		await expect(platformBaseUrl.call(contextWith(' https://Video.Example.com:443/v1/ '))).resolves.toBe('https://video.example.com');
		await expect(platformBaseUrl.call(contextWith('https://video.example.com'))).resolves.toBe('https://video.example.com');
		await expect(platformBaseUrl.call(contextWith('http://127.0.0.1:5680/tenant/'))).resolves.toBe('http://127.0.0.1:5680/tenant');
		await expect(platformBaseUrl.call(contextWith('https://video.example.com/school-b/V1'))).resolves.toBe('https://video.example.com/school-b');
	});

	it("keeps the Base URL's path: two platforms or tenants on one host are two platforms", async () => {
		const [sandbox, schoolB] = await Promise.all([
			platformBaseUrl.call(contextWith('https://video.example.com/sandbox')),
			platformBaseUrl.call(contextWith('https://video.example.com/school-b')),
		]);
		expect(sandbox).toBe('https://video.example.com/sandbox');
		expect(schoolB).toBe('https://video.example.com/school-b');
	});

	it("refuses a Base URL the node would not send to, with the credential's own message", async () => {
		const error = await platformBaseUrl.call(contextWith('https://user:secret@video.example.com')).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/^The credential's Base URL has a user name or password in it/);
		expect(JSON.stringify(error)).not.toContain('secret@');
	});

	it.each([
		['Math-2026-11-26', 'Math-2026-11-26'],
		[42, '42'],
		[false, 'false'],
	])('reads the key %p as %p', (value, key) => {
		expect(readItemKey.call(contextWith('https://video.example.com', value), 0)).toBe(key);
	});

	it.each([
		['', 'empty'],
		['  ', 'empty'],
		[null, 'empty'],
		[{ a: 1 }, 'an object'],
		[['a'], 'a list'],
	])('fails the item for the key %p, saying it is %s', (value, kind) => {
		expect(() => readItemKey.call(contextWith('https://video.example.com', value), 3)).toThrow(`The Create Once Per Key key of this item is ${kind} [item 3]`);
	});
});
