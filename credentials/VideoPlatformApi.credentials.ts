import type {
	IAuthenticate,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { API_VERSION_PREFIX, ROOMS_PATH } from '../nodes/VideoPlatform/platform';
import { API_CREDENTIAL, BASE_URL_EXPRESSION, normalizeApiKey } from '../nodes/VideoPlatform/shared/credentials';

/** Redirects are never followed; these say so, since n8n shows only a rule's fixed message. */
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** A path in the Base URL that the API is not under is the likeliest cause of a 404 here. */
const WRONG_PATH = ` A 404 can also mean that the Base URL has a path the platform's API is not under: enter only your platform's address, e.g. https://video.example.com, and a path only if the API is under one. Leave out ${API_VERSION_PREFIX}: the node adds it.`;

/** Answers that prove the server was reached without rejecting the key. */
const NOT_REJECTED_STATUSES = [400, 404, 405, 409, 422, 429, 500, 501, 502, 503, 504];

/** The words of those answers' red result, which the form's notice quotes before the click. */
const NOT_REJECTED = 'reached and did not reject the API key';

/**
 * n8n shows every non-2xx answer in red and its own words for a pass, so the form says beforehand
 * what a red result from a working platform looks like.
 */
const TEST_NOTICE = `When you save, n8n tests the connection: it checks that the Base URL answers and that the platform does not refuse the API key. The platform offers no way to check a key without creating something, so with a working platform the test may still turn red with "The server at this Base URL was ${NOT_REJECTED}…" (n8n 1.x says it in its own words, such as "The resource you are requesting could not be found"): then both are probably fine; create a room to be sure. Red because the key was rejected or refused (n8n 1.x: "Authorization failed" or "Forbidden"), or because of a redirect: do what the message says. Red because n8n could not connect: check the Base URL's spelling, and that n8n can reach that address.`;

export class VideoPlatformApi implements ICredentialType {
	name = API_CREDENTIAL.type;

	displayName = API_CREDENTIAL.displayName;

	icon: Icon = {
		light: 'file:../nodes/VideoPlatform/videoPlatform.svg',
		dark: 'file:../nodes/VideoPlatform/videoPlatform.dark.svg',
	};

	documentationUrl = 'https://github.com/videoplatform/n8n-nodes-videoplatform#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://video.example.com',
			// A hint shows under the field; a description only on hover, where a newcomer misses it.
			hint: 'The address of your platform, without the /v1 version prefix (the node adds it)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			hint: 'The API key issued to you by the platform. Paste it with or without "Bearer ".',
		},
		{
			displayName: TEST_NOTICE,
			name: 'testNotice',
			type: 'notice',
			default: '',
		},
	];

	/**
	 * A function, not a generic expression: n8n runs it without its expression engine, which in
	 * n8n 2.x costs about 0.9 ms per request. The HTTP Request node and the Test button use it too.
	 */
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${normalizeApiKey(credentials.apiKey)}` },
	});

	/**
	 * The only published endpoint creates rooms, so the test never sends a POST: it sends a GET,
	 * which must not change anything. Only 401 and 403 mean a rejected key. n8n reports every
	 * other non-2xx answer as a failed test, so those answers get a message that says what
	 * they do show: the server was reached and did not reject the key.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: ROOMS_PATH,
			method: 'GET',
			// Both, because n8n versions read different ones; the key must not follow a redirect.
			disableFollowRedirect: true,
			maxRedirects: 0,
			sendCredentialsOnCrossOriginRedirect: false,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The platform rejected the API key (HTTP 401). Check the key and try again.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The platform refused this API key (HTTP 403). Check that the key is active and may use the API.',
				},
			},
			...REDIRECT_STATUSES.map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The Base URL answered with a redirect (HTTP ${status}), which is never followed, so that the API key goes only to the Base URL's address. Open the Base URL in a browser to see where it leads (often https:// instead of http://, or another path), and enter that address if it is your platform's API.`,
				},
			})),
			...NOT_REJECTED_STATUSES.map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The server at this Base URL was ${NOT_REJECTED} (it answered HTTP ${status} to a read-only request). The platform publishes no read-only endpoint, so the key cannot be confirmed further; if creating a room fails with 404, check the Base URL.${status === 404 ? WRONG_PATH : ''}`,
				},
			})),
		],
	};
}
