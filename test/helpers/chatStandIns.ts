import type * as http from 'node:http';

import type { StandInHandler } from './tlsStandIn';

/**
 * Stand-ins for Slack and Microsoft Teams (Microsoft Graph), answering n8n's real Slack and
 * Microsoft Teams nodes through tlsStandIn's proxy. They implement only posting a message, with
 * the fields those nodes read; nothing here says how Slack or Graph answer anything else.
 */

export const SLACK_TOKEN = 'xoxb-e2e-slack-token';
export const TEAMS_TOKEN = 'e2e-teams-access-token';
export const CHAT_HOSTS = ['slack.com', 'graph.microsoft.com'];

export interface ChatPost {
	/** Slack: the channel as sent; Teams: "<team id>/<channel id>". */
	channel: string;
	text: string;
}

/** What n8n's credentials hold for these stand-ins; ids and names are the test's own. */
export const chatCredentials = () => [
	{ id: 'e2eSlack', name: 'Slack (stand-in)', type: 'slackApi', data: { accessToken: SLACK_TOKEN } },
	{
		id: 'e2eTeams',
		name: 'Microsoft Teams (stand-in)',
		type: 'microsoftTeamsOAuth2Api',
		data: {
			clientId: 'e2e-client-id',
			clientSecret: 'e2e-client-secret',
			oauthTokenData: { access_token: TEAMS_TOKEN, token_type: 'Bearer', refresh_token: 'e2e-refresh-token' },
		},
	},
];

/** A node's credentials as a user picks them after import (CHAT_HOSTS' nodes only). */
export function withChatCredentials<T extends { type: string; credentials?: unknown }>(node: T): T {
	if (node.type === 'n8n-nodes-base.slack') return { ...node, credentials: { slackApi: { id: 'e2eSlack', name: 'Slack (stand-in)' } } };
	if (node.type === 'n8n-nodes-base.microsoftTeams') {
		return { ...node, credentials: { microsoftTeamsOAuth2Api: { id: 'e2eTeams', name: 'Microsoft Teams (stand-in)' } } };
	}
	return node;
}

const bearer = (headers: http.IncomingHttpHeaders) => String(headers.authorization ?? '').replace(/^Bearer /, '');
const TEAMS_POST = /^\/(?:beta|v1\.0)\/teams\/([^/]+)\/channels\/([^/]+)\/messages$/;

export function createChatStandIns() {
	const slackPosts: ChatPost[] = [];
	const teamsPosts: ChatPost[] = [];
	const unknown: string[] = [];

	const slack: StandInHandler = ({ method, url, headers, body }) => {
		if (bearer(headers) !== SLACK_TOKEN) return { status: 200, body: { ok: false, error: 'invalid_auth' } };
		if (method !== 'POST' || url.pathname !== '/api/chat.postMessage') {
			unknown.push(`${method} ${url.pathname}`);
			return { status: 200, body: { ok: false, error: 'unknown_method' } };
		}
		const message = JSON.parse(body) as ChatPost;
		slackPosts.push({ channel: message.channel, text: message.text });
		return { status: 200, body: { ok: true, channel: 'C0E2ETEST', ts: `1700000000.${String(slackPosts.length).padStart(6, '0')}`, message: { text: message.text } } };
	};

	const teams: StandInHandler = ({ method, url, headers, body }) => {
		if (bearer(headers) !== TEAMS_TOKEN) return { status: 401, body: { error: { code: 'InvalidAuthenticationToken', message: 'Stand-in: wrong token' } } };
		const target = TEAMS_POST.exec(url.pathname);
		if (method !== 'POST' || !target) {
			unknown.push(`${method} ${url.pathname}`);
			return { status: 404, body: { error: { code: 'NotFound', message: 'Not Found (stand-in)' } } };
		}
		const message = JSON.parse(body) as { body: { contentType: string; content: string } };
		teamsPosts.push({ channel: `${decodeURIComponent(target[1])}/${decodeURIComponent(target[2])}`, text: message.body.content });
		return { status: 201, body: { id: String(1700000000000 + teamsPosts.length), body: message.body } };
	};

	return {
		slackPosts,
		teamsPosts,
		/** Requests to paths the stand-ins do not know. */
		unknown,
		slack,
		teams,
		/** Slack and Teams; any other host is unknown. */
		handler: ((request) => {
			if (request.host === 'slack.com') return slack(request);
			if (request.host === 'graph.microsoft.com') return teams(request);
			unknown.push(`${request.method} ${request.host}${request.url.pathname}`);
			return { status: 404, body: {} };
		}) as StandInHandler,
	};
}
