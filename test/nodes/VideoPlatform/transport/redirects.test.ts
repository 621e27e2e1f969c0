import { createRoomFailure as createRoomAt } from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../../../helpers/sandbox';

describe('redirects are never followed', () => {
	let platform: Sandbox;
	let elsewhere: Sandbox;
	beforeEach(async () => (elsewhere = await startSandbox()));
	afterEach(async () => {
		await platform?.stop();
		await elsewhere.stop();
	});

	it.each([301, 302, 303, 307, 308])(
		'HTTP %p to another port: that server gets no request at all, and the item fails',
		async (status) => {
			const target = `${elsewhere.url}/v1/rooms`;
			platform = await startSandbox({ fault: 'redirect', faultRedirectStatus: status, faultRedirectTo: target });
			const error = await createRoomAt(platform.url);

			expect(error.message).toBe(
				`The Base URL answered with a redirect (HTTP ${status}) to ${target}, which the node does not follow [item 0]`,
			);
			expect(error.description).toBe(
				`Use ${elsewhere.url} as the Base URL in the Video Platform API credential. The node never follows redirects, so that the API key goes only to the Base URL's address; nothing was sent to ${elsewhere.url}.`,
			);
			expect(error.httpCode).toBe(String(status));
			expect(elsewhere.state.requests).toEqual([]);
			expect(platform.state.requests).toHaveLength(1);
		},
	);

	it('suggests the https form of the Base URL when that is where it points', async () => {
		platform = await startSandbox({ fault: 'redirect', faultRedirectStatus: 301 });
		const https = platform.url.replace('http:', 'https:');
		const error = await createRoomAt(platform.url);
		expect(error.message).toContain(`to ${https}/v1/rooms, which the node does not follow`);
		expect(error.description).toMatch(new RegExp(`^Use ${https} as the Base URL`));
	});

	it('shows where it points without user info, query or fragment, and without the key', async () => {
		const target = `http://admin:hunter2@other.example:8443/v1/rooms?token=${SANDBOX_KEY}#frag`;
		platform = await startSandbox({ fault: 'redirect', faultRedirectTo: target });
		const error = await createRoomAt(platform.url);
		expect(error.message).toContain('to http://other.example:8443/v1/rooms, which');
		expect(error.description).toMatch(/^If http:\/\/other.example:8443 is your platform's API, use http:\/\/other.example:8443 as the Base URL/);
		const everything = JSON.stringify([error.message, error.description, error, error.context]);
		for (const secret of ['hunter2', 'admin', SANDBOX_KEY, 'token', 'frag']) expect(everything).not.toContain(secret);
	});
});
