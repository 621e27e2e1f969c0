import { readFileSync } from 'node:fs';

import type { Sandbox } from '../helpers/sandbox';
import { startSandbox } from '../helpers/sandbox';
import { serverAnsweringByName } from '../helpers/scriptedServer';
import type { N8n } from './n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from './n8nWithPackage';
import { createClasses, roomCreateWorkflow, executeCreate, executeCreateWithCli, itCreatesEveryClassUnderARateLimit } from './scenarios/roomCreate';
import { ensureOwner } from '../../tools/n8n/api';
import { credential, httpRequestWithCredential, manualTrigger, workflow } from '../../tools/n8n/workflows';

const API_KEY = 'sk_e2e_4b1f9d7a33c2';
const WRONG_KEY = 'sk_e2e_wrong_0000';

type SeenRequest = { method: string; path: string; body: string; authorization: string; authorizationHeaders: number; contentType?: string };

const LONG_KEY = `eyJ${'aB3_-x9Q'.repeat(625)}`;
const PASSWORD_IN_URL = 'pa55-in-the-url-e2e';
const CONTINUE = { onError: 'continueRegularOutput' };
const rowsNamed = (...names: unknown[]) => names.map((name) => ({ name }));

describe.each(FULL_VERSIONS)('Room → Create in a real n8n %s', (version) => {
	let n8n: N8n;
	let sandbox: Sandbox;
	/** Platforms of one test each: a redirect's target, one that redirects to it, one that echoes the key, one that answers by name. */
	let target: Sandbox;
	let redirecting: Sandbox;
	let echoing: Sandbox;
	let seeOther: Awaited<ReturnType<typeof serverAnsweringByName>>;

	beforeAll(async () => {
		n8n = await n8nWithPackage(version, 'room');
		// Started after n8n's install, and idle for long enough to wait for their test: each is used by one test.
		const whileTheFileRuns = { apiKey: API_KEY, maxIdleMs: 30 * 60_000 };
		sandbox = await startSandbox(whileTheFileRuns);
		target = await startSandbox(whileTheFileRuns);
		redirecting = await startSandbox({ ...whileTheFileRuns, fault: 'redirect', faultRedirectStatus: 302, faultRedirectTo: `${target.url}/v1/rooms` });
		echoing = await startSandbox({ ...whileTheFileRuns, fault: 'echo-key' });
		const json = { 'content-type': 'application/json' };
		seeOther = await serverAnsweringByName((name) => {
			if (name === 'Rejected') return [400, json, '{"message":"this name is taken"}'];
			// Later than the 400, so that the 400 is the run's error and this item one of the others.
			if (name === 'See other') return [303, { location: '/v1/rooms/r-2' }, '', 1500];
			return [201, json, JSON.stringify({ id: name, name }), 1500];
		});
		// The credentials and workflows of the tests below (each test executes the workflow of its id),
		// imported before n8n starts; PartWay and Bulk import their own.
		await n8n.importCredentials([
			// The credential as a user might paste it: a /v1/ suffix and a "Bearer " prefix, with spaces.
			credential('vpGood', ` ${sandbox.url}/v1/ `, `  Bearer ${API_KEY} `),
			credential('vpWrongKey', sandbox.url, WRONG_KEY),
			credential('vpRedirecting', redirecting.url, API_KEY),
			credential('vpLongKey', sandbox.url, LONG_KEY),
			credential('vpEchoing', echoing.url, API_KEY),
			credential('vpUserInfo', sandbox.url.replace('://', `://alice:${PASSWORD_IN_URL}@`), API_KEY),
			credential('vpSeeOther', seeOther.url, API_KEY),
			credential('vpLocalhost', sandbox.url.replace('127.0.0.1', 'localhost'), API_KEY),
		]);
		await n8n.importWorkflows([
			roomCreateWorkflow('Many', 'vpGood', [{ name: 'Math 7A' }, { name: { not: 'text' } }, { name: 1234, type: 'conference' }], CONTINUE),
			roomCreateWorkflow('BadKey', 'vpWrongKey', rowsNamed('A', 'B'), CONTINUE),
			// One at a time, so that no later item is already under way when item 1 fails.
			roomCreateWorkflow('Stop', 'vpGood', rowsNamed('First', ['a', 'list'], 'Never sent'), {}, { maxConcurrentRequests: 1 }),
			roomCreateWorkflow('Redirect', 'vpRedirecting', rowsNamed('Redirected'), CONTINUE),
			roomCreateWorkflow('LongKey', 'vpLongKey', rowsNamed('A', 'B'), CONTINUE),
			roomCreateWorkflow('EchoKey', 'vpEchoing', rowsNamed('Echoed')),
			roomCreateWorkflow('UserInfo', 'vpUserInfo', rowsNamed('With user info'), CONTINUE),
			roomCreateWorkflow('SeeOther', 'vpSeeOther', rowsNamed('Made', 'Rejected', 'See other', 'Made too'), {}, { maxConcurrentRequests: 4 }),
			roomCreateWorkflow('SsrfOn', 'vpGood', rowsNamed('Room SsrfOn'), CONTINUE),
			roomCreateWorkflow('SsrfIp', 'vpGood', rowsNamed('Room SsrfIp'), CONTINUE),
			roomCreateWorkflow('SsrfHost', 'vpLocalhost', rowsNamed('Room SsrfHost'), CONTINUE),
			workflow('wfHttpCred', [
				manualTrigger(),
				httpRequestWithCredential('HTTP Request', 'vpGood', {
					method: 'GET',
					url: `${sandbox.url}/v1/some/other/path`,
					options: { response: { response: { neverError: true } } },
				}),
			]),
		]);
		// Each test runs its workflow on it, as the editor's Execute Workflow does (no CLI cold start).
		await n8n.start();
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		for (const server of [sandbox, target, redirecting, echoing, seeOther]) await server?.stop();
	});

	beforeEach(() => {
		sandbox.state.requests.length = 0;
	});

	it('creates one room per item, keeps going past a bad item, and reports it inside json', async () => {
		const { result, output: outputOfRun } = await executeCreate(n8n, 'Many');
		expect(result).toHaveRunOk();

		// Requests run concurrently, so the server may see them in any order.
		const seen = [...(sandbox.state.requests as SeenRequest[])].sort((a, b) => a.body.localeCompare(b.body));
		expect(seen.map(({ method, path: p, body, authorization, contentType }) => ({ method, p, body, authorization, contentType }))).toEqual([
			{ method: 'POST', p: '/v1/rooms', body: '{"name":"1234","type":"conference"}', authorization: 'valid Bearer key', contentType: 'application/json' },
			{ method: 'POST', p: '/v1/rooms', body: '{"name":"Math 7A","type":"conference"}', authorization: 'valid Bearer key', contentType: 'application/json' },
		]);
		expect(seen.map((r) => r.authorizationHeaders)).toEqual([1, 1]);

		const output = outputOfRun();
		expect(output).toHaveLength(3);
		expect(output[0]).toMatchObject({ json: { name: 'Math 7A', type: 'conference' }, pairedItem: { item: 0 } });
		expect(output[1]).toEqual({
			json: {
				error: {
					message: 'The Name field must be text, but it is an object [item 1]',
					description: expect.stringContaining('single value'),
					httpCode: null,
				},
			},
			pairedItem: { item: 1 },
		});
		expect(output[2]).toMatchObject({ json: { name: '1234' }, pairedItem: { item: 2 } });
		expect(result.stdout + result.stderr).not.toContain(API_KEY);
	});

	it('a rejected key gives every item a 401 error with Continue On Fail, and never shows the key', async () => {
		const { result, output } = await executeCreate(n8n, 'BadKey');
		expect(result).toHaveRunOk();
		expect(output().map((item: { json: { error: unknown } }) => item.json.error)).toEqual([0, 1].map((i) => ({
			message: `The platform rejected the API key (HTTP 401) [item ${i}]`,
			description: expect.stringContaining('check the API key'),
			httpCode: 401,
		})));
		expect((sandbox.state.requests as SeenRequest[]).map((r) => r.authorization)).toEqual(['wrong', 'wrong']);
		expect(JSON.stringify(result.run) + result.stdout + result.stderr).not.toContain(WRONG_KEY);
	});

	it('without Continue On Fail, the run fails with an error that names the item', async () => {
		const { result } = await executeCreate(n8n, 'Stop');
		expect(result.ok).toBe(false);
		expect(result.stdout + result.stderr).toContain('The Name field must be text, but it is a list [item 1]');
		expect((sandbox.state.requests as SeenRequest[]).map((r) => r.body)).toEqual([
			'{"name":"First","type":"conference"}',
		]);
	});

	it('a redirecting platform: the item is an error that says where it points, and the target gets nothing', async () => {
		const { result, output } = await executeCreate(n8n, 'Redirect');
		expect(result).toHaveRunOk();
		expect(output()).toEqual([
			{
				json: {
					error: {
						message: `The Base URL answered with a redirect (HTTP 302) to ${target.url}/v1/rooms, which the node does not follow [item 0]`,
						description: expect.stringContaining(`If ${target.url} is your platform's API, use ${target.url} as the Base URL`),
						httpCode: 302,
					},
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(redirecting.state.requests).toHaveLength(1);
		expect(target.state.requests).toEqual([]);
		expect(JSON.stringify(result.run) + result.stdout + result.stderr).not.toContain(API_KEY);
	});

	it('a key of 5,000 characters: each item fails as the platform said, and no 8 characters of the key show anywhere', async () => {
		const { result, output } = await executeCreate(n8n, 'LongKey');
		expect(result).toHaveRunOk();
		expect(output().map((item: { json: { error: { message: string } } }) => item.json.error.message)).toEqual([
			'The platform rejected the API key (HTTP 401) [item 0]',
			'The platform rejected the API key (HTTP 401) [item 1]',
		]);
		const shown = (JSON.stringify(result.run) + result.stdout + result.stderr).toLowerCase();
		const runs = Array.from({ length: LONG_KEY.length - 7 }, (_, i) => LONG_KEY.slice(i, i + 8).toLowerCase());
		expect(runs.filter((run) => shown.includes(run))).toEqual([]);
	});

	it('a platform that echoes the key in its 201: the output holds a marker instead', async () => {
		const { result, output } = await executeCreate(n8n, 'EchoKey');
		expect(result).toHaveRunOk();
		expect(output()[0].json).toMatchObject({ name: 'Echoed', createdWith: 'Bearer [API key removed by the node]' });
		expect(JSON.stringify(result.run) + result.stdout + result.stderr).not.toContain(API_KEY);
	});

	it('a Base URL with user:password@ is refused, sends nothing, and never shows the password', async () => {
		const { result, output } = await executeCreate(n8n, 'UserInfo');
		expect(result).toHaveRunOk();
		const [item] = output();
		expect(item.json.error).toEqual({
			message: "The credential's Base URL has a user name or password in it (…@ before the host) [item 0]",
			description: expect.stringContaining('Remove everything between :// and @'),
			httpCode: null,
		});
		expect(sandbox.state.requests).toEqual([]);
		expect(JSON.stringify(result.run) + result.stdout + result.stderr).not.toContain(PASSWORD_IN_URL);
	});

	it('a run that fails part-way without Continue On Fail names the items that already got a room', async () => {
		const partWay = { id: 'PartWay', count: 6, maxConcurrentRequests: 1, apiKey: API_KEY, sandboxOptions: { fault: 'html', faultMatch: '"Class 3"' } };
		await createClasses(n8n, partWay, ({ result, own }) => {
			expect(result.ok).toBe(false);
			expect(own.state.rooms.map((room: { name: string }) => room.name)).toEqual(['Class 0', 'Class 1', 'Class 2']);
			// n8n prints a failed run's error, description included, in its log.
			const printed = result.stdout + result.stderr;
			expect(printed).toContain('[item 3]');
			expect(printed).toContain('3 items had already got a room in it (items 0-2; n8n counts items from 0)');
			expect(printed).toContain('Running the whole workflow again would create those rooms again');
		});
	});

	it('a 303 after the POST for one of several items: the failed run names that item among those the platform may have created a room for', async () => {
		const { result } = await executeCreate(n8n, 'SeeOther');
		expect(result.ok).toBe(false);
		const printed = result.stdout + result.stderr;
		expect(printed).toContain('The platform rejected the request (HTTP 400): this name is taken [item 1]');
		expect(printed).toContain('Of the other items, the platform may have created a room for item 2 (n8n counts items from 0): check the platform before you run it again.');
		expect(printed).toContain(`The platform answered HTTP 303 (See Other) to ${seeOther.url}/v1/rooms/r-2, which means it carried out the request`);
	});

	// With 150 items at a limit of 40 per second it is a load run: test/load/roomCreate.load.test.ts.
	itCreatesEveryClassUnderARateLimit(() => n8n, { id: 'Bulk', apiKey: API_KEY, count: 24, maxConcurrentRequests: 8, rateLimit: 12 });

	it('the HTTP Request node can use the credential as a predefined credential type', async () => {
		const result = await n8n.run('wfHttpCred');
		expect(result).toHaveRunOk();
		expect(sandbox.state.requests).toEqual([
			expect.objectContaining({ method: 'GET', path: '/v1/some/other/path', authorization: 'valid Bearer key', authorizationHeaders: 1 }),
		]);
	});
	// Last, since they run n8n with other settings.
	it("with N8N_SSRF_PROTECTION_ENABLED=true: blocked says so and sends nothing (2.x), allowed goes; 1.x has no such setting", async () => {
		// Set on the process that runs the workflow: `n8n execute`, with the started n8n stopped.
		await n8n.stop();
		const protect = { N8N_SSRF_PROTECTION_ENABLED: 'true' };
		const create = async (id: string, env: Record<string, string>) => await executeCreateWithCli(n8n, id, env);
		const created = (run: Awaited<ReturnType<typeof create>>) => run.output().map((item: { json: { name?: string } }) => item.json.name);

		const blocked = await create('SsrfOn', protect);
		if (!n8n.capabilities.ssrfProtection) {
			expect(created(blocked)).toEqual(['Room SsrfOn']);
			return;
		}
		const [item] = blocked.output();
		expect(item.json.error).toEqual({
			message: `n8n's outbound protection (SSRF protection) blocked the request to ${sandbox.url}. n8n's reason: The request was blocked because it resolves to a restricted IP address (127.0.0.1) [item 0]`,
			description:
				"Nothing was sent. An n8n administrator can allow this host with N8N_SSRF_ALLOWED_HOSTNAMES, or its address with N8N_SSRF_ALLOWED_IP_RANGES, in n8n's environment.",
			httpCode: null,
		});
		expect(sandbox.state.requests).toEqual([]);

		expect(created(await create('SsrfIp', { ...protect, N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' }))).toEqual(['Room SsrfIp']);
		expect(created(await create('SsrfHost', { ...protect, N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost' }))).toEqual(['Room SsrfHost']);
		expect(sandbox.state.requests).toHaveLength(2);
	});

	it("with N8N_SSRF_PROTECTION_ENABLED=true, the credential's Test button shows n8n's block and sends nothing (2.x); 1.x tests as usual", async () => {
		await n8n.stop();
		await n8n.start({ env: { N8N_SSRF_PROTECTION_ENABLED: 'true' } });
		try {
			const cookie = await ensureOwner(n8n.baseUrl);
			// n8n tests the data sent for a credential the user may use: an imported one's id.
			const response = await fetch(`${n8n.baseUrl}/rest/credentials/test`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Cookie: cookie, 'browser-id': 'videoplatform-tooling' },
				body: JSON.stringify({ credentials: credential(n8n.idOf('vpGood'), `${sandbox.url}/v1/`, API_KEY) }),
			});
			const answer = await response.text();
			expect({ status: response.status, answer }).toEqual({ status: 200, answer: expect.any(String) });
			const { data } = JSON.parse(answer) as { data: { status: string; message: string } };
			if (!n8n.capabilities.ssrfProtection) {
				expect(data.status).toBe('OK');
				return;
			}
			// The Test is declarative, so n8n words it: docs/credentials.md quotes this message.
			expect(data).toEqual({ status: 'Error', message: 'The request was blocked because it resolves to a restricted IP address' });
			expect(sandbox.state.requests).toEqual([]);
		} finally {
			await n8n.stop();
		}
	});

	// The runs' own checks read what n8n logged while each ran; this reads every line it logged.
	it("n8n's logs of every run above hold no API key, no 8 characters of the long key, and no password", () => {
		const logged = Object.values(n8n.logFiles()).map((file) => readFileSync(file, 'utf8')).join('\n');
		expect(logged.length).toBeGreaterThan(0);
		for (const secret of [API_KEY, WRONG_KEY, PASSWORD_IN_URL]) expect(logged).not.toContain(secret);
		const runs = Array.from({ length: LONG_KEY.length - 7 }, (_, i) => LONG_KEY.slice(i, i + 8).toLowerCase());
		const lower = logged.toLowerCase();
		expect(runs.filter((run) => lower.includes(run))).toEqual([]);
	});
});
