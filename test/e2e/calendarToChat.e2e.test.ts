// Example 03 (calendar event → room → chat message) in a real n8n, as a user runs it: the
// workflow active, n8n's real Google Calendar Trigger polling every minute, the packed Video
// Platform node, n8n's real Edit Fields and Slack nodes.
//
// Real: n8n, every node and its code, the sandbox (rooms are counted there), n8n's database
// (Drop Redelivered's remembered keys), the HTTPS requests to www.googleapis.com and slack.com
// with their credentials (OAuth2 access token, Slack token), sent through n8n's own
// HTTPS_PROXY support with TLS checked against a CA trusted through NODE_EXTRA_CA_CERTS.
// Stood in: Google Calendar and Slack (test/helpers/calendarChatStandIn.ts, behind the CONNECT
// proxy of test/helpers/tlsStandIn.ts, which reaches no other host); the test's CA; a forwarder in
// front of the sandbox that takes the link out of its answer while the test wants none (the
// platform has not published its answer, so it may have no link field).
// Changed in the imported copy: only the credentials of the trigger and the Slack node.
import { readFileSync } from 'node:fs';

import { loadExamples, sandboxCredential } from '../../tools/n8n/examples';
import { listExecutions, waitForExecutions } from '../../tools/n8n/api';
import { outputOf } from '../../tools/n8n/workflows';
import type { CalendarEvent } from '../helpers/calendarChatStandIn';
import { GOOGLE_TOKEN, SLACK_TOKEN, STAND_IN_HOSTS, createCalendarChatStandIn, startLinkDroppingForwarder } from '../helpers/calendarChatStandIn';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import type { HttpsStandIn, TestCa } from '../helpers/tlsStandIn';
import { makeTestCa, startHttpsStandIn } from '../helpers/tlsStandIn';
import type { N8n } from './n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from './n8nWithPackage';

const NO_LINK = "The platform's answer has no link; open the platform to find the room.";
const LIFETIME_MS = 15 * 60_000;
// The trigger polls once a minute (n8n refuses anything shorter); the first poll after activation
// lists nothing new, and on 2.x the first one after that may not either.
const POLL_WAIT_MS = 200_000;

const example = loadExamples().find((e: { file: string }) => e.file.startsWith('03-'))!.workflow;

function event(id: string, summary: string, hour: number, updated = '2026-11-20T08:00:00.000Z'): CalendarEvent {
	const at = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00+01:00`;
	return { id, summary, updated, start: { dateTime: at(hour) }, end: { dateTime: at(hour + 1) } };
}

/** Example 03 with credentials for the trigger and the Slack node, as a user adds them. */
function exampleWithCredentials() {
	const workflow = JSON.parse(JSON.stringify(example));
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.googleCalendarTrigger') {
			node.credentials = { googleCalendarOAuth2Api: { id: 'e2eGoogleCalendar', name: 'Google Calendar (stand-in)' } };
		}
		if (node.type === 'n8n-nodes-base.slack') node.credentials = { slackApi: { id: 'e2eSlack', name: 'Slack (stand-in)' } };
	}
	return workflow;
}

const credentials = () => [
	{
		id: 'e2eGoogleCalendar',
		name: 'Google Calendar (stand-in)',
		type: 'googleCalendarOAuth2Api',
		data: {
			grantType: 'authorizationCode',
			clientId: 'e2e-client-id',
			clientSecret: 'e2e-client-secret',
			scope: 'https://www.googleapis.com/auth/calendar',
			oauthTokenData: { access_token: GOOGLE_TOKEN, token_type: 'Bearer', refresh_token: 'e2e-refresh-token' },
		},
	},
	{ id: 'e2eSlack', name: 'Slack (stand-in)', type: 'slackApi', data: { accessToken: SLACK_TOKEN } },
];

/** The end of the log of n8n start, where it says why a poll failed. */
function logTail(n8n: N8n): string {
	try {
		return readFileSync(String(n8n.logFile), 'utf8').slice(-1500);
	} catch {
		return '(no log)';
	}
}

async function until(what: string, check: () => boolean, timeoutMs: number, diagnose: () => string) {
	const started = Date.now();
	while (!check()) {
		if (Date.now() - started > timeoutMs) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}: ${diagnose()}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

describe.each(FULL_VERSIONS)('example 03 (calendar event → room → chat) in a real n8n %s', (version) => {
	let n8n: N8n;
	let sandbox: Sandbox;
	let ca: TestCa;
	let proxy: HttpsStandIn;
	let forwarder: Awaited<ReturnType<typeof startLinkDroppingForwarder>>;
	const standIn = createCalendarChatStandIn();

	beforeAll(async () => {
		ca = makeTestCa(STAND_IN_HOSTS);
		proxy = await startHttpsStandIn({ hosts: STAND_IN_HOSTS, ca, handler: standIn.handler, maxLifetimeMs: LIFETIME_MS });
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, maxIdleMs: LIFETIME_MS });
		forwarder = await startLinkDroppingForwarder(sandbox.url, LIFETIME_MS);
		n8n = await n8nWithPackage(version, 'calendar-to-chat');
		await n8n.importCredentials([sandboxCredential(forwarder.url, SANDBOX_KEY), ...credentials()]);
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		await forwarder?.stop();
		await sandbox?.stop();
		await proxy?.stop();
		ca?.cleanup();
	});

	it('makes one room per calendar event, posts its link or says it has none, and makes no room for an event that comes again', async () => {
		const workflow = exampleWithCredentials();
		await n8n.importWorkflow(workflow);
		await n8n.activateWorkflow(workflow.id);

		const standup = event('evt-standup-1', 'Team standup', 9);
		const review = event('evt-review-2', 'Design review', 14);
		const reviewMoved = { ...event('evt-review-2', 'Design review (moved to 15:00)', 15, '2026-11-21T10:00:00.000Z') };
		// Its title holds a link: the message must not take it for the room's link.
		const parents = event('evt-parents-3', 'Parent evening, agenda https://school.example.test/agenda', 18);

		// First poll with events: two new ones; the sandbox's answers keep their link.
		standIn.list([standup, review]);
		// Second: the first event again as it was, an updated copy of the second, one more event;
		// the sandbox's answer has no link now.
		standIn.list([standup, reviewMoved, parents]);

		await n8n.start({
			env: {
				// Both spellings: n8n's proxy-from-env reads the lower-case one first.
				HTTPS_PROXY: proxy.proxyUrl,
				https_proxy: proxy.proxyUrl,
				NO_PROXY: '127.0.0.1,localhost',
				no_proxy: '127.0.0.1,localhost',
				NODE_EXTRA_CA_CERTS: ca.caFile,
			},
		});
		try {
			const apiKey = await (await n8n.publicApi()).key;
			const runsOf = async (count: number) =>
				(await waitForExecutions(n8n.baseUrl, apiKey, workflow.id, { atLeast: count, timeoutMs: 60_000 })).sort(
					(a: { id: string }, b: { id: string }) => Number(a.id) - Number(b.id),
				);

			// What the stand-ins saw, for a test that times out (a TLS or proxy failure shows as no poll).
			const seen = () =>
				`${standIn.polls.length} events-list requests, CONNECT asked for ${JSON.stringify(proxy.connects)}, unknown calls ${JSON.stringify(standIn.unknown)}. The end of n8n's log:\n${logTail(n8n)}`;

			forwarder.state.withLink = true;
			await until('the first poll with events', () => standIn.polls.filter((p) => p.served.length).length >= 1, POLL_WAIT_MS, seen);
			const [first] = await runsOf(1);
			expect(first.status).toBe('success');
			forwarder.state.withLink = false;

			await until('the second poll with events', () => !standIn.waiting, POLL_WAIT_MS, seen);
			const runs = await runsOf(2);
			expect(runs).toHaveLength(2);
			expect(runs.map((run: { status: string }) => run.status)).toEqual(['success', 'success']);
			const second = runs[1];

			// The trigger passed on every event it was given; the example dropped the two that came again.
			expect(outputOf(first, 'New calendar event').map((item: { json: { id: string } }) => item.json.id)).toEqual(['evt-standup-1', 'evt-review-2']);
			expect(outputOf(second, 'New calendar event').map((item: { json: { id: string } }) => item.json.id)).toEqual([
				'evt-standup-1',
				'evt-review-2',
				'evt-parents-3',
			]);
			expect(outputOf(second, 'Once per calendar event').map((item: { json: { id: string } }) => item.json.id)).toEqual(['evt-parents-3']);

			// One room per distinct event id, on the sandbox.
			expect(sandbox.state.rooms.map((room: { name: string }) => room.name)).toEqual([standup.summary, review.summary, parents.summary]);

			// One chat message per room, in the example's channel.
			expect(standIn.posts).toHaveLength(sandbox.state.rooms.length);
			expect(standIn.posts.map((post) => post.channel)).toEqual(['#meetings', '#meetings', '#meetings']);
			const [standupPost, reviewPost, parentsPost] = standIn.posts.map((post) => post.text);
			expect(forwarder.state.linksPassed).toEqual(sandbox.state.rooms.slice(0, 2).map((room: { link: string }) => room.link));
			expect(standupPost).toBe(`Room for "Team standup" (${standup.start.dateTime}): ${forwarder.state.linksPassed[0]}`);
			expect(reviewPost).toBe(`Room for "Design review" (${review.start.dateTime}): ${forwarder.state.linksPassed[1]}`);
			expect(parentsPost).toBe(`Room for "${parents.summary}" (${parents.start.dateTime}): ${NO_LINK}`);

			// The nodes' calls went through n8n's proxy support to the stand-ins, and were all known ones.
			expect(standIn.unknown).toEqual([]);
			expect(proxy.connects).toEqual(expect.arrayContaining(['www.googleapis.com:443', 'slack.com:443']));
			expect(standIn.polls.every((poll) => poll.updatedMin !== undefined)).toBe(true);
			expect(await listExecutions(n8n.baseUrl, apiKey, workflow.id)).toHaveLength(2);
		} finally {
			await n8n.stop();
		}
	}, 10 * 60_000);
});
