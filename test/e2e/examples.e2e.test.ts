import { loadExamples, sandboxCredential } from '../../tools/n8n/examples';
import { breakingChangesReport, breakingChangesRule } from '../../tools/n8n/api';
import { versionSpec } from '../../tools/install/versions';
import { outputOf } from '../../tools/n8n/workflows';
import { sendSampleDelivery } from '../../tools/sandbox/webhook';
import { CHAT_HOSTS, chatCredentials, createChatStandIns, withChatCredentials } from '../helpers/chatStandIns';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import type { HttpsStandIn, TestCa } from '../helpers/tlsStandIn';
import { makeTestCa, startHttpsStandIn } from '../helpers/tlsStandIn';
import type { N8n } from './n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from './n8nWithPackage';

const examples = loadExamples();
const byId = (id: string) => examples.find((e: { workflow: { id: string } }) => e.workflow.id === id)!.workflow;
// The one 3.0 rule that concerns the package, and says so for every instance with a community package.
const UNVERIFIED_PACKAGES_RULE = 'unverified-packages-v3';
// Where example 02 posts in Teams once a user picked them (From List gives these ids).
const TEAM_ID = '61165b04-e4cc-4026-b43f-926b4e2a7182';
const CHANNEL_ID = '19:e2eClasses@thread.tacv2';

/** Example 02 as a user sets it up after import: Slack and Teams credentials, the team and channel picked. */
function dailyExampleSetUp() {
	const workflow = JSON.parse(JSON.stringify(byId('vpExampleDaily')));
	workflow.nodes = workflow.nodes.map((node: { type: string; parameters: Record<string, unknown> }) => {
		const picked = node.type === 'n8n-nodes-base.microsoftTeams'
			? { ...node, parameters: { ...node.parameters, teamId: { __rl: true, mode: 'id', value: TEAM_ID }, channelId: { __rl: true, mode: 'id', value: CHANNEL_ID } } }
			: node;
		return withChatCredentials(picked);
	});
	return workflow;
}

describe.each(FULL_VERSIONS)('example workflows in a real n8n %s', (version) => {
	let n8n: N8n;
	let sandbox: Sandbox;
	let ca: TestCa;
	let chatProxy: HttpsStandIn;
	const chat = createChatStandIns();
	const chatProxyEnv = () => ({
		// Both spellings: n8n's proxy-from-env reads the lower-case one first.
		HTTPS_PROXY: chatProxy.proxyUrl,
		https_proxy: chatProxy.proxyUrl,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		NODE_EXTRA_CA_CERTS: ca.caFile,
	});

	beforeAll(async () => {
		// Every fourth request fails with 422, so that the per-class example shows its error branch.
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, errorRate: 0.25, errorStatus: 422, maxIdleMs: 10 * 60_000 });
		ca = makeTestCa(CHAT_HOSTS);
		chatProxy = await startHttpsStandIn({ hosts: CHAT_HOSTS, ca, handler: chat.handler, maxLifetimeMs: 15 * 60_000 });
		n8n = await n8nWithPackage(version, 'examples');
		await n8n.importCredentials([sandboxCredential(sandbox.url, SANDBOX_KEY), ...chatCredentials()]);
		// Started once for every test, the examples run on it as the editor's Execute Workflow runs
		// them; Slack and Teams through the stand-in's proxy, whose CA it trusts.
		await n8n.start({ env: chatProxyEnv() });
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		await sandbox?.stop();
		await chatProxy?.stop();
		ca?.cleanup();
	});

	it('every example imports without errors', async () => {
		await n8n.importWorkflows(examples.map(({ workflow }) => workflow));
		const listed = await n8n.cli(['list:workflow']);
		for (const { workflow } of examples) expect(listed.stdout).toContain(n8n.idOf(workflow.id));
		expect(examples).toHaveLength(5);
	});

	it('"create a room by hand" runs green against the sandbox', async () => {
		const result = await n8n.run(byId('vpExampleManual').id);
		expect(result).toHaveRunOk();
		expect(outputOf(result.run, 'Create a room')[0].json).toMatchObject({ name: 'My first room', type: 'conference' });
	});

	it('"one room per class" creates the rooms, posts each room\'s link in Slack and in Teams, routes a failed class to its error output, and a second run creates no second room', async () => {
		sandbox.state.rooms.length = 0;
		const workflow = dailyExampleSetUp();
		await n8n.importWorkflow(workflow);
		const result = await n8n.run(workflow.id);
		expect(result).toHaveRunOk();
		const created = outputOf(result.run, 'Create class room');
		const failed = outputOf(result.run, 'Rooms that failed');
		expect(created.length + failed.length).toBe(4);
		expect(failed).toHaveLength(1);
		expect(failed[0].json.error).toMatchObject({ httpCode: 422 });
		const rooms = sandbox.state.rooms as Array<{ name: string; link: string }>;
		expect(rooms.map((room) => room.name.split(' - ')[0]).sort()).toEqual(created.map((item: { json: { name: string } }) => item.json.name.split(' - ')[0]).sort());

		// One message per room in each chat, with the link the sandbox answered, mapped as the example maps it.
		const expected = rooms.map((room) => `Today's room for ${room.name.split(' - ')[0]}: ${room.link}`).sort();
		expect(chat.slackPosts.map((post) => post.text).sort()).toEqual(expected);
		expect(chat.slackPosts.map((post) => post.channel)).toEqual(['#classes', '#classes', '#classes']);
		expect(chat.teamsPosts.map((post) => post.text).sort()).toEqual(expected);
		expect(new Set(chat.teamsPosts.map((post) => post.channel))).toEqual(new Set([`${TEAM_ID}/${CHANNEL_ID}`]));
		expect(chat.unknown).toEqual([]);
		expect(chatProxy.connects).toEqual(expect.arrayContaining(['slack.com:443', 'graph.microsoft.com:443']));

		// Run again the same morning: the classes that have a room are skipped, only the failed one is sent again.
		const again = await n8n.run(workflow.id);
		expect(again).toHaveRunOk();
		const skipped = outputOf(again.run, 'Create class room').filter((item: { json: { skipped?: boolean } }) => item.json.skipped);
		expect(skipped.map((item: { json: { reason: string } }) => item.json.reason)).toEqual(['created-before', 'created-before', 'created-before']);
		const names = (sandbox.state.rooms as Array<{ name: string }>).map((room) => room.name.split(' - ')[0]);
		// Over both runs one message per room in each chat: Only new rooms keeps the skipped classes out.
		const everyRoom = (sandbox.state.rooms as Array<{ name: string; link: string }>).map((room) => `Today's room for ${room.name.split(' - ')[0]}: ${room.link}`).sort();
		expect(chat.slackPosts.map((post) => post.text).sort()).toEqual(everyRoom);
		expect(chat.teamsPosts.map((post) => post.text).sort()).toEqual(everyRoom);
		expect(new Set(names).size).toBe(names.length);
	});

	it('"react to platform webhooks" routes the sandbox\'s example delivery', async () => {
		const workflow = byId('vpExampleWebhook');
		await n8n.activateWorkflow(workflow.id);
		const target = n8n.triggerUrl(workflow);
		await n8n.waitForWebhook(target);
		const sent = await sendSampleDelivery(target);
		expect(sent.status).toBe(200);
		const runs = await n8n.waitForExecutions(workflow.id);
		expect(runs).toHaveLength(1);
		expect(runs[0].status).toBe('success');
		expect(outputOf(runs[0], 'Example deliveries')[0].json).toMatchObject({ example: true });

		// The same delivery again (same bytes): the example's Drop Redelivered stops it.
		expect((await sendSampleDelivery(target, { payload: sent.payload })).status).toBe(200);
		const [again] = (await n8n.waitForExecutions(workflow.id, { atLeast: 2 })).sort(
			(a: { id: string }, b: { id: string }) => Number(b.id) - Number(a.id),
		);
		expect(again.status).toBe('success');
		expect(outputOf(again, 'Drop redeliveries')).toEqual([]);
		expect(again.data.resultData.runData['Route by payload field']).toBeUndefined();
	});

	(versionSpec(version).capabilities.v3Report ? it : it.skip)(
		"n8n's own 3.0 report names neither the package nor an example, beyond unverified packages being off by default",
		async () => {
			const report = await breakingChangesReport(n8n.baseUrl, 'v3');
			expect(report.targetVersion).toBe('v3');
			expect(report.instanceResults.map((rule) => rule.ruleId)).toContain(UNVERIFIED_PACKAGES_RULE);

			const exampleIds = new Set(examples.map(({ workflow }: { workflow: { id: string } }) => n8n.idOf(workflow.id)));
			const named: string[] = [];
			for (const { ruleId } of report.workflowResults.filter((rule) => rule.nbAffectedWorkflows > 0)) {
				const { affectedWorkflows = [] } = await breakingChangesRule(n8n.baseUrl, ruleId);
				for (const affected of affectedWorkflows) if (exampleIds.has(affected.id)) named.push(`${ruleId}: ${affected.name}`);
			}
			for (const rule of report.instanceResults.filter((rule) => rule.ruleId !== UNVERIFIED_PACKAGES_RULE)) {
				if (/videoplatform/i.test(JSON.stringify(rule))) named.push(`${rule.ruleId}: ${JSON.stringify(rule.instanceIssues)}`);
			}
			expect(named).toEqual([]);
		},
	);
});
