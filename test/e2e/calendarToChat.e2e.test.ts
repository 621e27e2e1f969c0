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
// front of the sandbox that takes the link out of its answer from the third room on (the
// platform has not published its answer, so it may have no link field).
// Both versions run at the same time, each with its own stand-ins: most of the time is spent
// waiting for n8n's minute polls, and the waits overlap.
// Changed in the imported copy: only the credentials of the trigger and the Slack node.
import { readFileSync } from 'node:fs';

import { loadExamples, sandboxCredential } from '../../tools/n8n/examples';
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
// A version's whole run: its set-up (15 minutes at most, as for any real-n8n file) and its two polls.
const RUN_MS = 25 * 60_000;
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

/** Set once the file ends: a run still going stops at its next step. */
let closing = false;
const unlessClosing = () => {
	if (closing) throw new Error('the file ended before this version finished');
};

async function until(what: string, check: () => boolean, timeoutMs: number, diagnose: () => string) {
	const started = Date.now();
	while (!check()) {
		unlessClosing();
		if (Date.now() - started > timeoutMs) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}: ${diagnose()}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** One version's n8n with example 03 active, the stand-ins it calls, and what they saw. */
type Parts = {
	n8n: N8n;
	sandbox: Sandbox;
	ca: TestCa;
	proxy: HttpsStandIn;
	forwarder: Awaited<ReturnType<typeof startLinkDroppingForwarder>>;
	standIn: ReturnType<typeof createCalendarChatStandIn>;
};
type Execution = { id: string; status: string };

const standup = event('evt-standup-1', 'Team standup', 9);
const review = event('evt-review-2', 'Design review', 14);
const reviewMoved = { ...event('evt-review-2', 'Design review (moved to 15:00)', 15, '2026-11-21T10:00:00.000Z') };
// Its title holds a link: the message must not take it for the room's link.
const parents = event('evt-parents-3', 'Parent evening, agenda https://school.example.test/agenda', 18);
// First poll with events: two new ones. Second: the first event again as it was, an updated copy
// of the second, one more event.
const FIRST_POLL = [standup, review];
const SECOND_POLL = [standup, reviewMoved, parents];

/**
 * One version's run, as a user's: the example imported and active, n8n started, both polls with
 * events waited for, then n8n stopped. `parts` collects what afterAll cleans up, even part-way.
 */
async function run(version: string, parts: Partial<Parts>) {
	parts.ca = makeTestCa(STAND_IN_HOSTS);
	const standIn = createCalendarChatStandIn();
	parts.standIn = standIn;
	standIn.list(FIRST_POLL);
	standIn.list(SECOND_POLL);
	parts.proxy = await startHttpsStandIn({ hosts: STAND_IN_HOSTS, ca: parts.ca, handler: standIn.handler, maxLifetimeMs: RUN_MS });
	parts.sandbox = await startSandbox({ apiKey: SANDBOX_KEY, maxIdleMs: RUN_MS });
	// The first poll's rooms keep their link; the second poll's has none.
	parts.forwarder = await startLinkDroppingForwarder(parts.sandbox.url, RUN_MS, FIRST_POLL.length);
	const n8n = await n8nWithPackage(version, 'calendar-to-chat');
	parts.n8n = n8n;
	await n8n.importCredentials([sandboxCredential(parts.forwarder.url, SANDBOX_KEY), ...credentials()]);
	const workflow = exampleWithCredentials();
	await n8n.importWorkflow(workflow);
	await n8n.activateWorkflow(workflow.id);
	unlessClosing();
	await n8n.start({
		env: {
			// Both spellings: n8n's proxy-from-env reads the lower-case one first.
			HTTPS_PROXY: parts.proxy.proxyUrl,
			https_proxy: parts.proxy.proxyUrl,
			NO_PROXY: '127.0.0.1,localhost',
			no_proxy: '127.0.0.1,localhost',
			NODE_EXTRA_CA_CERTS: parts.ca.caFile,
		},
	});
	try {
		const runsOf = async (count: number): Promise<Execution[]> =>
			(await n8n.waitForExecutions(workflow.id, { atLeast: count, timeoutMs: 60_000 })).sort(
				(a: Execution, b: Execution) => Number(a.id) - Number(b.id),
			);
		// What the stand-ins saw, for a run that times out (a TLS or proxy failure shows as no poll).
		const seen = () =>
			`${standIn.polls.length} events-list requests, CONNECT asked for ${JSON.stringify(parts.proxy?.connects)}, unknown calls ${JSON.stringify(standIn.unknown)}. The end of n8n's log:\n${logTail(n8n)}`;

		await until('the first poll with events', () => standIn.polls.filter((p) => p.served.length).length >= 1, POLL_WAIT_MS, seen);
		const [first] = await runsOf(1);
		await until('the second poll with events', () => !standIn.waiting, POLL_WAIT_MS, seen);
		const runs = await runsOf(2);
		return { first, runs, listed: await (await n8n.publicApi()).executions(workflow.id) };
	} finally {
		await n8n.stop();
	}
}

const parts = new Map(FULL_VERSIONS.map((version) => [version, {} as Partial<Parts>]));
const runs = new Map<string, ReturnType<typeof run>>();

beforeAll(() => {
	for (const [version, part] of parts) {
		const running = run(version, part);
		// Each version's test reports its own run's failure.
		running.catch(() => undefined);
		runs.set(version, running);
	}
});

afterAll(async () => {
	closing = true;
	await Promise.allSettled(runs.values());
	for (const { n8n, forwarder, sandbox, proxy, ca } of parts.values()) {
		await Promise.allSettled([n8n?.dispose(), forwarder?.stop(), sandbox?.stop(), proxy?.stop()]);
		ca?.cleanup();
	}
}, 10 * 60_000);

describe.each(FULL_VERSIONS)('example 03 (calendar event → room → chat) in a real n8n %s', (version) => {
	it('makes one room per calendar event, posts its link or says it has none, and makes no room for an event that comes again', async () => {
		const { first, runs: both, listed } = await runs.get(version)!;
		const { sandbox, proxy, forwarder, standIn } = parts.get(version) as Parts;
		expect(first.status).toBe('success');
		expect(both).toHaveLength(2);
		expect(both.map((execution) => execution.status)).toEqual(['success', 'success']);
		const second = both[1];

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
		expect(listed).toHaveLength(2);
	}, RUN_MS);
});
