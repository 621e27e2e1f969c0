import fc from 'fast-check';

import { createRoomFailure as createRoomAt, MAY_HAVE_CREATED_ROOM } from '../helpers/platformClient';
import { ANGLE_BRACKETS, outsideTextWithMarkup } from '../helpers/outsideText';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import { handAnsweredServerForTests } from '../helpers/scriptedServer';

const NEVER_FOLLOWED = "The node never follows redirects, so that the API key goes only to the Base URL's address";

describe('redirects are never followed', () => {
	let platform: Sandbox;
	let elsewhere: Sandbox;
	beforeEach(async () => (elsewhere = await startSandbox()));
	afterEach(async () => {
		await platform?.stop();
		await elsewhere.stop();
	});

	it.each([301, 307, 308])(
		'HTTP %p (not carried out) to another port: that server gets no request at all, and the item fails with the Base URL to use if that port is the API',
		async (status) => {
			const target = `${elsewhere.url}/v1/rooms`;
			platform = await startSandbox({ fault: 'redirect', faultRedirectStatus: status, faultRedirectTo: target });
			const error = await createRoomAt(platform.url);

			expect(error.message).toBe(
				`The Base URL answered with a redirect (HTTP ${status}) to ${target}, which the node does not follow [item 0]`,
			);
			expect(error.description).toBe(
				`If ${elsewhere.url} is your platform's API, use ${elsewhere.url} as the Base URL in the Video Platform API credential. ${NEVER_FOLLOWED}; nothing was sent to ${elsewhere.url}.`,
			);
			expect(error.httpCode).toBe(String(status));
			expect(elsewhere.state.requests).toEqual([]);
			expect(platform.state.requests).toHaveLength(1);
		},
	);

	it('HTTP 303 after the POST: the platform may have created the room, and no Base URL is suggested', async () => {
		const target = `${elsewhere.url}/v1/rooms/r-1`;
		platform = await startSandbox({ fault: 'redirect', faultRedirectStatus: 303, faultRedirectTo: target });
		const error = await createRoomAt(platform.url);

		expect(error.message).toBe(
			`The platform answered HTTP 303 (See Other) to ${target}, which means it carried out the request; the node does not follow redirects [item 0]`,
		);
		expect(error.description).toBe(`${MAY_HAVE_CREATED_ROOM} ${NEVER_FOLLOWED}; nothing was sent to ${elsewhere.url}.`);
		expect(error.httpCode).toBe('303');
		expect(elsewhere.state.requests).toEqual([]);
	});

	it('HTTP 302 after the POST may be either: the room may exist, and the Base URL to use if it does not', async () => {
		const target = `${elsewhere.url}/v1/rooms`;
		platform = await startSandbox({ fault: 'redirect', faultRedirectStatus: 302, faultRedirectTo: target });
		const error = await createRoomAt(platform.url);

		expect(error.message).toBe(`The Base URL answered with a redirect (HTTP 302) to ${target}, which the node does not follow [item 0]`);
		expect(error.description).toBe(
			`${MAY_HAVE_CREATED_ROOM} A 302 can also mean that the Base URL points elsewhere. If ${elsewhere.url} is your platform's API, use ${elsewhere.url} as the Base URL in the Video Platform API credential. ${NEVER_FOLLOWED}; nothing was sent to ${elsewhere.url}.`,
		);
		expect(elsewhere.state.requests).toEqual([]);
	});

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

describe('what a redirect says, whatever its Location', () => {
	const server = handAnsweredServerForTests();
	/** As a server would send it: the text's UTF-8 bytes, minus what no header may carry. */
	const asHeader = (text: string) => Buffer.from([...text].filter((c) => c.charCodeAt(0) >= 0x20 && c !== '\x7f').join(''), 'utf8').toString('latin1');
	const redirectTo = (status: number, location: string) =>
		server.answerWith((response) => {
			response.writeHead(status, { Location: asHeader(location) });
			response.end();
		});

	it.each([301, 302, 303, 307, 308])('HTTP %p to the same origin never says that nothing was sent there', async (status) => {
		redirectTo(status, '/api/v1/rooms');
		const error = await createRoomAt(server.url);
		expect(error.message).toContain(`to ${server.url}/api/v1/rooms`);
		expect(error.description).not.toContain('nothing was sent to');
		if (status !== 303) expect(error.description).toContain(`Use ${server.url}/api as the Base URL`);
	});

	it('a Location that is not a web address (javascript:, data:, any x:) is never offered as the Base URL, and carries no markup', async () => {
		const scheme = fc.oneof(fc.constantFrom('javascript', 'data', 'x', 'vbscript', 'file', 'ftp', 'JavaScript'), fc.stringMatching(/^[a-z][a-z0-9+.-]{0,8}$/))
			.filter((name) => !/^https?$/i.test(name));
		const ending = fc.constantFrom('', '/v1/rooms', '<b>/v1/rooms');
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(301, 302, 303, 307, 308), scheme, outsideTextWithMarkup, ending, async (status, name, text, end) => {
				redirectTo(status, `${name}:${text}${end}`);
				const error = await createRoomAt(server.url);
				expect(error.description).not.toContain('as the Base URL');
				expect(error.message).toMatch(/ to an? [^ ]+: address, not a web address| without a valid address to go to/);
				for (const shown of [error.message, error.description]) expect(shown).not.toMatch(ANGLE_BRACKETS);
			}),
			{ numRuns: 60 },
		);
	});

	it('a web Location with markup in it shows none', async () => {
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(301, 302, 303, 307, 308), fc.constantFrom('https', 'http', 'HTTPS'), outsideTextWithMarkup, async (status, name, text) => {
				redirectTo(status, `${name}://evil.example/${text}/v1/rooms`);
				const error = await createRoomAt(server.url);
				expect(error.message).not.toMatch(ANGLE_BRACKETS);
				expect(error.description).not.toMatch(ANGLE_BRACKETS);
			}),
			{ numRuns: 40 },
		);
	});
});
