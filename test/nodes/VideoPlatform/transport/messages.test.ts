import fc from 'fast-check';
import { NodeApiError } from 'n8n-workflow';

import type { FailedRequest } from '../../../../nodes/VideoPlatform/transport/messages';
import { requestError } from '../../../../nodes/VideoPlatform/transport/messages';
import { noAnswerOutcome } from '../../../../nodes/VideoPlatform/transport/answer';
import { createRoomFailure, failedCreateRoom as failed } from '../../../helpers/platformClient';
import { ANGLE_BRACKETS, MARKUP_EXAMPLES, outsideTextWithMarkup } from '../../../helpers/outsideText';
import { anyText } from '../../../helpers/unicode';
import { startSandbox } from '../../../helpers/sandbox';

describe('error mapping', () => {
	it.each([
		[400, /rejected the request \(HTTP 400\): name is too long/, /Check this item/],
		[422, /rejected the request \(HTTP 422\): name is too long/, /Check this item/],
		[401, /rejected the API key \(HTTP 401\)/, /check the API key/],
		[403, /not allowed to do this \(HTTP 403\)/, /lacks permission/],
		[404, /Nothing was found at https:\/\/video.example.com\/v1\/rooms \(HTTP 404\)/, /Base URL/],
		[431, /refused the request headers as too large \(HTTP 431\)/, /API key may be too long/],
		[500, /server error \(HTTP 500\)/, /not repeated/],
		[503, /server error \(HTTP 503\)/, /may have processed it/],
		[409, /answered HTTP 409/, /not repeated/],
	])('maps HTTP %p to a message that says what happened and what to do', (status, message, hint) => {
		const error = requestError({ kind: 'error-status', status, body: JSON.stringify({ message: 'name is too long' }) }, failed);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(message);
		expect(error.message).toMatch(/\[item 2\]$/);
		expect(error.description).toMatch(hint);
		expect(error.httpCode).toBe(String(status));
		expect(error.context.itemIndex).toBe(2);
	});

	it('removes the key when the platform echoes it', () => {
		const error = requestError({ kind: 'error-status', status: 400, body: JSON.stringify({ message: 'bad header Bearer sk_live_secret' }) }, failed);
		expect(error.message).toContain('Bearer [redacted]');
		expect(JSON.stringify(error)).not.toContain('sk_live_secret');
	});
});

/** Every string reachable from a value: own properties, enumerable or not (stack, cause, ...), at any depth. */
function stringsIn(root: unknown): string[] {
	const found: string[] = [];
	const seen = new Set<object>();
	const visit = (value: unknown): void => {
		if (typeof value === 'string') found.push(value);
		if (value === null || typeof value !== 'object' || seen.has(value)) return;
		seen.add(value);
		for (const name of Object.getOwnPropertyNames(value)) visit((value as Record<string, unknown>)[name]);
	};
	visit(root);
	return found;
}

const percentDecoded = (text: string) =>
	text.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const jsonUnescaped = (text: string) =>
	text.replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(["\\/])/g, '$1');

/** Whether the key is in the text as sent, percent-encoded or JSON-escaped, in any letter case. */
function revealsKey(text: string, key: string): boolean {
	const forms = [text, percentDecoded(text), jsonUnescaped(text), percentDecoded(jsonUnescaped(text)), jsonUnescaped(percentDecoded(text))];
	return forms.some((form) => form.toLowerCase().includes(key.toLowerCase()));
}

function expectKeyNowhereIn(error: unknown, key: string) {
	const strings = stringsIn(error);
	expect(strings.length).toBeGreaterThan(5);
	expect(strings.filter((text) => revealsKey(text, key))).toEqual([]);
}

describe('the key appears in no property of an error, in no form', () => {
	const KEY = 'sk_Live_"q"\\/<t>{x}% 9~';
	const percentEach = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
	const echoes = [
		KEY,
		KEY.toUpperCase(),
		encodeURIComponent(KEY),
		encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		percentEach,
		`{"echo":${JSON.stringify(KEY)}}`,
		`not json: ${JSON.stringify(KEY).replace(/\//g, '\\/')}`,
		`Authorization: Bearer ${KEY}`,
	];
	// The Base URL is typed by the user, who may have pasted the key into it.
	const hostile: FailedRequest = {
		...failed,
		secret: KEY,
		baseUrl: `https://video.example.com/${encodeURIComponent(KEY)}`,
		url: `https://video.example.com/${encodeURIComponent(KEY)}/v1/rooms`,
	};
	const location = `https://evil.example/${encodeURIComponent(KEY)}/v1/rooms?key=${encodeURIComponent(KEY)}`;

	it.each([400, 401, 403, 404, 409, 431, 500])('HTTP %p, whatever the platform echoes', (status) => {
		for (const echo of echoes) {
			expectKeyNowhereIn(requestError({ kind: 'error-status', status, body: echo }, hostile), KEY);
			expectKeyNowhereIn(requestError({ kind: 'error-status', status, body: JSON.stringify({ message: echo, error: { detail: echo } }) }, hostile), KEY);
		}
	});

	it.each([
		['a redirect to where the key is in the path', () => requestError({ kind: 'redirected', status: 302, location: location }, hostile)],
		['a redirect to the Base URL itself', () => requestError({ kind: 'redirected', status: 301, location: `${hostile.url}/` }, hostile)],
		['a timeout', () => requestError({ kind: 'timeout', deadlineMs: 1000 }, hostile)],
		['a refused connection', () => requestError(noAnswerOutcome({ code: 'ECONNREFUSED' }, 1000), hostile)],
		['a reset', () => requestError(noAnswerOutcome({ cause: { code: 'ECONNRESET' } }, 1000), hostile)],
		['a cut-off answer', () => requestError({ kind: 'cut-off', status: 201 }, hostile)],
		['an answer too large', () => requestError({ kind: 'too-large', status: 201, maxBytes: 1024 }, hostile)],
		['an HTML page', () => requestError({ kind: 'html-page', status: 200 }, hostile)],
	])('%s', (_label, make) => {
		expectKeyNowhereIn(make(), KEY);
	});

	it("through n8n-core's real client, when the platform echoes the path the Base URL holds the key in", async () => {
		const sandbox = await startSandbox({ apiKey: KEY });
		try {
			const error = await createRoomFailure(`${sandbox.url}/${encodeURIComponent(KEY)}`, undefined, KEY);
			expect(error.httpCode).toBe('404');
			expectKeyNowhereIn(error, KEY);
		} finally {
			await sandbox.stop();
		}
	});
});

describe("a very short key never garbles the node's own words", () => {
	const local: FailedRequest = { ...failed, baseUrl: 'http://127.0.0.1:8787', url: 'http://127.0.0.1:8787/v1/rooms' };
	const builders: Array<(f: FailedRequest) => NodeApiError> = [
		...[400, 401, 403, 404, 409, 431, 500].map((status) => (f: FailedRequest) => requestError({ kind: 'error-status', status, body: '' }, f)),
		(f) => requestError({ kind: 'timeout', deadlineMs: 1000 }, f),
		(f) => requestError(noAnswerOutcome({ code: 'ECONNREFUSED' }, 1000), f),
		(f) => requestError({ kind: 'redirected', status: 307, location: 'https://127.0.0.1:8787/v1/rooms' }, f),
		(f) => requestError({ kind: 'html-page', status: 200 }, f),
	];

	it.each(['a', 'e', 'er', 'the', 'platform', 'API'])('with the key %p', (key) => {
		for (const build of builders) {
			const withShortKey = build({ ...local, secret: key });
			const withOtherKey = build({ ...local, secret: 'sk_not_in_any_text_0000' });
			expect([withShortKey.message, withShortKey.description]).toEqual([withOtherKey.message, withOtherKey.description]);
			expect(withShortKey.message).not.toContain('[redacted]');
		}
	});
});

describe('outside text carries no markup into any error', () => {
	const outsideFailures = (text: string, status: number): Array<[string, Parameters<typeof requestError>[0]]> => [
		['an error status quoting the platform', { kind: 'error-status', status, body: JSON.stringify({ message: text }) }],
		['an error status with a plain-text body', { kind: 'error-status', status, body: text }],
		['a redirect', { kind: 'redirected', status: 300 + (status % 100), location: text }],
		['a redirect to a data: address', { kind: 'redirected', status: 303, location: `data:text/html,${text}/v1/rooms` }],
		["n8n's outbound protection", { kind: 'blocked-by-n8n', reason: text }],
		['a Content-Encoding', { kind: 'undecodable', status: 200, why: 'encoding', label: text }],
		['a charset', { kind: 'undecodable', status: 200, why: 'charset', label: text }],
	];

	it('in the message, the description and the details, whatever the platform, n8n or the Base URL says', () => {
		fc.assert(
			fc.property(outsideTextWithMarkup, fc.integer({ min: 400, max: 599 }), fc.string({ unit: 'binary', maxLength: 30 }), (text, status, path) => {
				// The Base URL is the user's, but its path may hold anything too.
				const baseUrl = `https://video.example.com/${encodeURI(path.replace(/[\uD800-\uDFFF]/g, ''))}<b>`;
				const at = { ...failed, baseUrl, url: `${baseUrl}/v1/rooms` };
				for (const [, outcome] of outsideFailures(text, status)) {
					const error = requestError(outcome, at);
					const shown = [error.message, error.description ?? '', JSON.stringify((error as NodeApiError).context ?? {})];
					expect(shown.filter((part) => ANGLE_BRACKETS.test(part))).toEqual([]);
				}
			}),
			{ numRuns: 200 },
		);
	});

	it.each(outsideFailures(MARKUP_EXAMPLES[0], 400))('%s shows the markup as text', (_label, outcome) => {
		const error = requestError(outcome, failed);
		expect(`${error.message} ${error.description}`).not.toMatch(ANGLE_BRACKETS);
	});

	it('a quoted 400 shows what the platform said, with look-alike brackets', () => {
		const error = requestError({ kind: 'error-status', status: 400, body: JSON.stringify({ message: `Title ${MARKUP_EXAMPLES[1]} is too long` }) }, failed);
		expect(error.message).toBe('The platform rejected the request (HTTP 400): Title \u2039img src="https://evil.example/track.png"\u203A is too long [item 2]');
	});
});

describe('the Base URL a redirect suggests', () => {
	const REDIRECTS = [301, 302, 307, 308];
	const advice = (location: string, status = 301, from: FailedRequest = failed) => requestError({ kind: 'redirected', status, location }, from).description ?? '';
	const plainly = (description: string) => /(?:^|\. )Use (\S+) as the Base URL/.exec(description)?.[1];

	it.each(REDIRECTS)('HTTP %p from https:// to http:// on the same host: no http:// address, and why', (status) => {
		const description = advice('http://video.example.com/v1/rooms', status);
		expect(description).not.toMatch(/use http:\/\//i);
		expect(description).toContain('The redirect leads from https:// to http://, over which the API key would travel unencrypted, so no address is suggested from it.');
		expect(description).toContain("Check the Base URL in the Video Platform API credential: it should be the platform's API address itself.");
	});

	it('HTTP 301 from https:// to http:// on another host: no http:// address either', () => {
		expect(advice('http://other.example/v1/rooms')).toMatch(/^The redirect leads from https:\/\/ to http:\/\/.* Check the Base URL/);
	});

	it.each(REDIRECTS)('HTTP %p to another port on the same host: only if it is the platform\'s API', (status) => {
		expect(advice('https://video.example.com:8443/api/v1/rooms', status)).toContain(
			"If https://video.example.com:8443 is your platform's API, use https://video.example.com:8443/api as the Base URL in the Video Platform API credential.",
		);
		const local = { ...failed, baseUrl: 'http://127.0.0.1:8787', url: 'http://127.0.0.1:8787/v1/rooms' };
		expect(advice('http://127.0.0.1:9999/v1/rooms', status, local)).toContain("If http://127.0.0.1:9999 is your platform's API, use http://127.0.0.1:9999 as");
	});

	it('plainly on the same origin, and for the https form of an http:// Base URL', () => {
		expect(plainly(advice('https://video.example.com/api/v1/rooms'))).toBe('https://video.example.com/api');
		const plain = { ...failed, baseUrl: 'http://video.example.com', url: 'http://video.example.com/v1/rooms' };
		expect(plainly(advice('https://video.example.com/v1/rooms', 301, plain))).toBe('https://video.example.com');
		expect(plainly(advice('http://video.example.com/api/v1/rooms', 301, plain))).toBe('http://video.example.com/api');
	});

	it('never suggests an http:// address for an https:// Base URL, and plainly only its own origin, whatever the Location', () => {
		const location = fc
			.tuple(
				fc.constantFrom('http', 'https', 'HTTP', 'Https'),
				fc.constantFrom('video.example.com', 'VIDEO.example.com', 'other.example', '127.0.0.1', '[::1]'),
				fc.constantFrom('', ':80', ':443', ':8443'),
				anyText({ maxLength: 20 }),
				fc.constantFrom('/v1/rooms', '/v1/rooms/', ''),
			)
			.map(([scheme, host, port, path, end]) => `${scheme}://${host}${port}/${path}${end}`);
		fc.assert(
			fc.property(fc.constantFrom(...REDIRECTS), location, (status, to) => {
				const description = advice(to, status);
				expect(description).not.toMatch(/use http:\/\//i);
				const suggested = plainly(description);
				if (suggested !== undefined) expect(new URL(suggested).origin).toBe('https://video.example.com');
			}),
			{ numRuns: 300 },
		);
	});
});
