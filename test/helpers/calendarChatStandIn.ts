import * as http from 'node:http';

import { SLACK_TOKEN, createChatStandIns } from './chatStandIns';
import type { StandInHandler } from './tlsStandIn';

/**
 * Stand-ins for Google Calendar and Slack, answering the real Google Calendar Trigger and Slack
 * nodes of n8n through tlsStandIn's proxy, and a forwarder in front of the sandbox that can take
 * the link out of its answer. They implement only the calls example 03 makes, with the fields those
 * nodes read; nothing here says how Google, Slack or the video platform answer anything else.
 */

export const GOOGLE_TOKEN = 'e2e-google-access-token';
export { SLACK_TOKEN };
export const STAND_IN_HOSTS = ['www.googleapis.com', 'slack.com'];

export interface CalendarEvent {
	id: string;
	summary: string;
	updated: string;
	start: { dateTime: string };
	end: { dateTime: string };
	[field: string]: unknown;
}

export interface CalendarPoll {
	at: number;
	updatedMin?: string;
	served: CalendarEvent[];
}

export type { ChatPost as SlackPost } from './chatStandIns';

/**
 * The events the test wants listed are queued with list(); the next events-list request whose
 * window (updatedMin up to now) is at least two seconds long gets them all, once. Each listed event
 * is dated (created) inside that window: the trigger in "Event Created" mode passes on only events
 * created since its last check, so this is how a copy of an event comes through it again, as after
 * a lost check time. A shorter window (the first poll after activation has none) gets no events.
 */
export function createCalendarChatStandIn() {
	const pending: CalendarEvent[][] = [];
	const polls: CalendarPoll[] = [];
	const chat = createChatStandIns();
	const unknown = chat.unknown;
	const bearer = (headers: http.IncomingHttpHeaders) => String(headers.authorization ?? '').replace(/^Bearer /, '');

	const calendar: StandInHandler = ({ method, url, headers }) => {
		if (bearer(headers) !== GOOGLE_TOKEN) return { status: 401, body: { error: { code: 401, message: 'Invalid Credentials (stand-in)' } } };
		if (method !== 'GET' || url.pathname !== '/calendar/v3/calendars/primary/events') {
			unknown.push(`${method} ${url.pathname}`);
			return { status: 404, body: { error: { code: 404, message: 'Not Found (stand-in)' } } };
		}
		const updatedMin = url.searchParams.get('updatedMin') ?? undefined;
		const from = updatedMin ? Date.parse(updatedMin) : NaN;
		const poll: CalendarPoll = { at: Date.now(), updatedMin, served: [] };
		polls.push(poll);
		if (pending.length && Number.isFinite(from) && Date.now() - from >= 2000) {
			const created = new Date(from + 500).toISOString();
			poll.served = pending.shift()!.map((event) => ({ kind: 'calendar#event', status: 'confirmed', created, ...event }));
		}
		return { status: 200, body: { kind: 'calendar#events', summary: 'primary', items: poll.served } };
	};


	return {
		polls,
		posts: chat.slackPosts,
		/** Requests to paths the stand-ins do not know. */
		unknown,
		/** Queues the events of one poll. */
		list(events: CalendarEvent[]) {
			pending.push(events);
		},
		/** True while queued events have not been listed yet. */
		get waiting() {
			return pending.length > 0;
		},
		handler: ((request) => {
			if (request.host === 'www.googleapis.com') return calendar(request);
			if (request.host === 'slack.com') return chat.slack(request);
			unknown.push(`${request.method} ${request.host}${request.url.pathname}`);
			return { status: 404, body: {} };
		}) as StandInHandler,
	};
}

/**
 * Forwards every request to the sandbox. The answers for the first `roomsWithLink` rooms keep
 * their link; from then on it takes the link out of each created room's answer, as a platform
 * whose answer has no link field would answer.
 */
export async function startLinkDroppingForwarder(sandboxUrl: string, maxLifetimeMs: number, roomsWithLink: number) {
	const state = { linksPassed: [] as string[] };
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', async () => {
			try {
				const answer = await fetch(`${sandboxUrl}${req.url}`, {
					method: req.method,
					headers: Object.fromEntries(
						['authorization', 'content-type'].filter((name) => req.headers[name]).map((name) => [name, String(req.headers[name])]),
					),
					body: chunks.length ? Buffer.concat(chunks) : undefined,
				});
				let text = await answer.text();
				if (answer.status === 201) {
					const { link, ...room } = JSON.parse(text) as { link: string };
					if (state.linksPassed.length < roomsWithLink) state.linksPassed.push(link);
					else text = JSON.stringify(room);
				}
				res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' });
				res.end(text);
			} catch (error) {
				res.writeHead(502, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify({ error: `Forwarder failure: ${(error as Error).message}` }));
			}
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	let stopped: Promise<void> | undefined;
	const stop = () => {
		stopped ??= (async () => {
			clearTimeout(lifetime);
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		})();
		return stopped;
	};
	const lifetime = setTimeout(() => void stop(), maxLifetimeMs);
	lifetime.unref();
	return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, state, stop };
}
