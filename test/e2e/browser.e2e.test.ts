// The package as users see it: the packed tarball in real n8n 2.x and 1.x (one start each, as
// `npm start` sets it up), driven in Debian's Chromium by playwright-core. Only the editor's
// words and controls differ between the two (test/e2e/editor.ts).
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { defaultVersion } from '../../tools/install/versions';
import { ensureOwner, rest } from '../../tools/n8n/api';
import { createRoom, itemsFrom, manualTrigger, workflow } from '../../tools/n8n/workflows';
import { repoRoot, scratchRoot } from '../../tools/common/paths';
import { startEnvironment } from '../../tools/start';
import { type Editor, editorFor, launchChromium, signIn, Pictures, webhookUrlFromRest } from './editor';
import { packedTarball } from './packedTarball';
import { serverAnsweringByName } from '../helpers/scriptedServer';
import { oneHeavyFileAtATime } from './oneHeavyFileAtATime';

const VERSIONS = [defaultVersion(), defaultVersion(1)];
const CREATE = 'Create a room';
const NAME_HINT = 'Name is empty for the first input item';
const KEY_HINT = 'Delivery Key finds no key in the first input item';
const AUTH_HINT = 'Authentication is None: anyone who knows';
const ENTRY = 'Video Platform';
// The start of the credential form's notice (credentials/VideoPlatformApi.credentials.ts).
const CREDENTIAL_NOTICE = 'When you save, n8n tests the connection: it checks that the Base URL answers and that the platform does not refuse the API key.';
/** The notice as shown: from its first words to its end. */
const CREDENTIAL_NOTICE_WORDS = (shown: string) => shown.slice(shown.indexOf(CREDENTIAL_NOTICE), shown.indexOf('reach that address.') + 19);
// The trigger panel's words (VideoPlatformTrigger.node.ts) for a workflow not active yet, and for an active one.
const PANEL_INACTIVE = 'To run the workflow on its own, copy the Production URL';
const PANEL_ACTIVE = 'This workflow is published (n8n 1.x: active), so deliveries';
// What a platform could echo, e.g. a calendar title in a 400: a link over the whole screen and an image.
const LINK = '<a href="https://evil.example/login" style="position:fixed;inset:0;z-index:99999;background:red" target="_blank">Session expired: sign in again</a>';
const IMAGE = '<img src="https://evil.example/track.png">';
// Any element the outside text could have made.
const FROM_OUTSIDE = 'a[href*="evil.example"], img[src*="evil.example"], a[href^="javascript:"], a[href^="data:"], [style*="position:fixed"]';

// Never beside another heavy file: Chromium and n8n's editor take both cores at times.
oneHeavyFileAtATime();

describe.each(VERSIONS)('the Video Platform nodes in a real browser, n8n %s', (version) => {
	let environment: Awaited<ReturnType<typeof startEnvironment>>;
	let browser: Browser;
	let page: Page;
	let editor: Editor;
	const pictures = new Pictures(version);
	let cookie: string | undefined;
	const open = async (workflow: string) => await editor.openWorkflow(`${environment.n8n.baseUrl}/workflow/${workflow}`);

	beforeAll(async () => {
		execFileSync('bash', [path.join(repoRoot, 'tools', 'install', 'chromium.sh')], { stdio: 'inherit' });
		environment = await startEnvironment({
			version,
			userFolder: path.join(scratchRoot, `e2e-browser-${version}-${process.pid}`),
			port: 0,
			sandboxPort: 0,
			tarball: await packedTarball(),
			migratedDatabase: true,
			log: () => undefined,
		});
		browser = await launchChromium();
		page = await signIn(browser, environment.n8n.baseUrl);
		editor = editorFor(version, page);
	}, 15 * 60_000);

	afterAll(async () => {
		await browser?.close();
		await environment?.n8n.dispose();
		await environment?.sandbox.stop();
		pictures.record();
	});

	it.each(['video', 'room', 'meeting'])('searching "%s" in the node creator finds the package, first node or next', async (term) => {
		await editor.openWorkflow(`${environment.n8n.baseUrl}/workflow/new`);
		await expect(editor.searchNodes(term)).resolves.toContain(ENTRY);
		await open('vpExampleManual');
		await expect(editor.searchNodes(term)).resolves.toContain(ENTRY);
		if (term !== 'video') return;
		// Not docs/node-creator-search.png: the first-run walk takes that one, in its own workflow.
		await pictures.take(page, 'node-creator-after-a-node.png');
		// The entry holds both nodes: after a node, its actions; the trigger is a new workflow's first step.
		await page.locator('[data-test-id="node-creator-item-name"]', { hasText: ENTRY }).first().click();
		const actions = page.getByText(/^Actions \(2\)$/).first();
		if (!(await page.getByText(CREATE, { exact: true }).first().isVisible())) await actions.click();
		for (const offered of [CREATE, 'Drop redelivered webhook deliveries']) await page.getByText(offered, { exact: true }).first().waitFor();
	});

	it('a new trigger shows the panel for a workflow not yet active, and the Authentication hint only while it is None', async () => {
		await editor.openWorkflow(`${environment.n8n.baseUrl}/workflow/new`);
		await editor.searchNodes(ENTRY);
		await editor.pick(ENTRY, 'On all deliveries');
		await expect(editor.triggerPanelText()).resolves.toEqual(expect.stringContaining(PANEL_INACTIVE));
		await expect(editor.hintShown(AUTH_HINT)).resolves.toBe(true);
		await pictures.take(page, 'trigger-panel.png');
		await editor.chooseOption('authentication', 'Shared Secret Header');
		await expect(editor.hintShown(AUTH_HINT)).resolves.toBe(false);
	});

	it('the active webhook example shows the panel for an active workflow, and the Production URL n8n registered', async () => {
		await open('vpExampleWebhook');
		await editor.openNode('Video Platform Trigger');
		await expect(editor.triggerPanelText()).resolves.toEqual(expect.stringContaining(PANEL_ACTIVE));
		const copied = await editor.copyWebhookUrl('Production URL');
		await pictures.take(page, 'trigger-production-url.png');
		expect(copied).toBe(await webhookUrlFromRest(environment.n8n.baseUrl, copied));
		expect(copied).toBe(environment.webhookUrl);
	});

	it('the Delivery Key hint: not before the first delivery, not with the key a test delivery brings, shown when Delivery Key finds none', async () => {
		await open('vpExampleWebhook');
		await editor.openNode('Drop redeliveries');
		await expect(editor.hintShown(KEY_HINT)).resolves.toBe(false);
		await editor.closeNode();
		await editor.openNode('Video Platform Trigger');
		const testUrl = await editor.copyWebhookUrl('Test URL');
		await editor.listenForTestEvent();
		const answer = await fetch(testUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"example":true}' });
		expect(answer.status).toBe(200);
		await editor.waitForOutput('deliveryKey');
		await editor.closeNode();
		await editor.openNode('Drop redeliveries');
		await expect(editor.hintShown(KEY_HINT)).resolves.toBe(false);
		await editor.fillParameter('deliveryKey', '');
		await expect(editor.hintShown(KEY_HINT)).resolves.toBe(true);
		await pictures.take(page, 'hint-delivery-key.png');
	});

	it('Room → Create: the Name hint shows while Name is empty only, and a run from the editor shows the room', async () => {
		await open('vpExampleManual');
		await editor.openNode(CREATE);
		for (const label of ['Resource', 'Operation', 'Name', 'Type']) {
			await expect(page.getByText(label, { exact: true }).first().isVisible()).resolves.toBe(true);
		}
		await expect(editor.hintShown(NAME_HINT)).resolves.toBe(false);
		await pictures.take(page, 'node-parameters.png');
		await editor.fillParameter('name', '');
		await expect(editor.hintShown(NAME_HINT)).resolves.toBe(true);
		await pictures.take(page, 'hint-name-empty.png');
		await editor.fillParameter('name', 'Room from the editor');
		await expect(editor.hintShown(NAME_HINT)).resolves.toBe(false);
		await editor.executeStep();
		await editor.waitForOutput('Room from the editor');
		expect(environment.sandbox.state.rooms.map((room: { name: string }) => room.name)).toContain('Room from the editor');
		await pictures.take(page, 'example-run.png');
	});

	it('a manual run whose platform answers with markup: the toast and the error panel show it as text, and no link or image from it is anywhere on the page', async () => {
		const json = { 'content-type': 'application/json' };
		const rows = [`${LINK} ${IMAGE}`, `Title ${IMAGE}`, 'Redirect javascript', 'Redirect data', `"><img src=https://evil.example/x.png onerror=alert(1)>`].map((name) => ({ name }));
		// Item 0 answers first, so that it is the run's error; the others follow in order and are quoted under it.
		const later = (name: string) => 200 * rows.findIndex((row) => row.name === name);
		const platform = await serverAnsweringByName((name) => {
			if (name === 'Redirect javascript') return [302, { location: `javascript:alert(1)//${IMAGE}/v1/rooms` }, '', later(name)];
			if (name === 'Redirect data') return [301, { location: `data:text/html,${LINK}/v1/rooms` }, '', later(name)];
			return [400, json, JSON.stringify({ message: `Invalid calendar title: ${name}` }), later(name)];
		});
		try {
			const cookie = await ensureOwner(environment.n8n.baseUrl);
			const created = await rest(environment.n8n.baseUrl, '/rest/credentials', {
				method: 'POST',
				cookie,
				body: { name: 'Platform echoing markup', type: 'videoPlatformApi', data: { baseUrl: platform.url, apiKey: 'sk_markup_test_0001' } },
			});
			const credentialId = String(created.data.data.id);
			const built = workflow('wfMarkup', [manualTrigger(), ...itemsFrom('Markup', rows), createRoom('Create markup rooms', credentialId, {}, { maxConcurrentRequests: rows.length })]);
			built.nodes = built.nodes.map((node) => (node.name === 'Create markup rooms' ? { ...node, credentials: { videoPlatformApi: { id: credentialId, name: 'Platform echoing markup' } } } : node));
			const saved = await rest(environment.n8n.baseUrl, '/rest/workflows', {
				method: 'POST',
				cookie,
				body: { name: 'Markup from the platform', nodes: built.nodes, connections: built.connections, settings: {}, active: false },
			});
			await open(String(saved.data.data.id));
			await editor.executeWorkflow();

			const toast = await editor.toast();
			await expect(toast.innerText()).resolves.toContain('Invalid calendar title: \u2039a href="https://evil.example/login"');
			await pictures.take(page, 'markup-toast.png');
			expect(await page.locator(FROM_OUTSIDE).count()).toBe(0);

			await editor.openNode('Create markup rooms');
			const message = page.locator('[data-test-id="node-error-message"]').first();
			const description = page.locator('[data-test-id="node-error-description"]').first();
			await message.waitFor();
			await expect(message.innerText()).resolves.toContain('\u2039a href="https://evil.example/login"');
			await expect(description.innerText()).resolves.toContain('Also failed in this run');
			const shown = await description.innerText();
			expect(shown).toContain('\u2039img src="https://evil.example/track.png"\u203A');
			// The 302 and 301 to a javascript: and a data: address: named by scheme, never offered as the Base URL.
			expect(shown).toContain('to a javascript: address, not a web address');
			expect(shown).not.toContain('as the Base URL in');
			await pictures.take(page, 'markup-error-panel.png');
			// Everywhere on the page: the toast, the panel's header and description, and any hint.
			expect(await page.locator(FROM_OUTSIDE).count()).toBe(0);
			expect(await page.locator('[data-test-id="node-error-description"] a, [data-test-id="node-error-description"] img').count()).toBe(0);
		} finally {
			await platform.stop();
		}
	});

	// n8n 1.x shows its own words for an answer instead of the credential's rules.
	it.each([
		['a good key', 'good', 'Connection tested successfully', 'Connection tested successfully'],
		['a refused key (401)', 'refused', 'The platform rejected the API key (HTTP 401). Check the key and try again.', 'Authorization failed - please check your credentials'],
		['a Base URL whose server answers 404', 'notFound', 'The server at this Base URL was reached and did not reject the API key (it answered HTTP 404', 'The resource you are requesting could not be found'],
		['no connection', 'unreachable', 'Couldn\u2019t connect with these settings', 'Couldn\u2019t connect with these settings'],
	] as const)('the credential form says beforehand what its test proves; %s gets its own result', async (_case, kind, on2, on1) => {
		const { sandbox } = environment;
		const SANDBOX_KEY = sandbox.options.apiKey;
		const data = {
			good: { baseUrl: sandbox.url, apiKey: SANDBOX_KEY },
			refused: { baseUrl: sandbox.url, apiKey: 'sk_not_this_one_0001' },
			// The sandbox answers 404 outside its API, as a platform may to the read-only request.
			notFound: { baseUrl: `${sandbox.url}/nowhere`, apiKey: SANDBOX_KEY },
			// Nothing listens on port 1.
			unreachable: { baseUrl: 'http://127.0.0.1:1', apiKey: SANDBOX_KEY },
		}[kind];
		// One sign-in for all four: n8n limits how often one may sign in.
		cookie ??= await ensureOwner(environment.n8n.baseUrl);
		const created = await rest(environment.n8n.baseUrl, '/rest/credentials', { method: 'POST', cookie, body: { name: `Test result: ${kind}`, type: 'videoPlatformApi', data } });
		const shown = await editor.openCredentialTested(`${environment.n8n.baseUrl}/home/credentials/${created.data.data.id}`, data.apiKey);
		await pictures.take(page, `credential-test-${kind}.png`);
		expect(shown).toContain(CREDENTIAL_NOTICE);
		const result = editor.major === 1 ? on1 : on2;
		expect(shown).toContain(result);
		// What the test shows in red is what the notice names, in this version's words.
		if (kind === 'notFound' || (kind === 'refused' && editor.major === 1)) expect(CREDENTIAL_NOTICE_WORDS(shown)).toContain(result.replace(/ -.*| \(.*/, '').slice(0, 40));
		// The result, above the notice (which names every result).
		if (kind === 'notFound') expect(shown.slice(0, shown.indexOf(CREDENTIAL_NOTICE))).not.toMatch(/\b(rejected|refused) (the|this) API key|Authorization failed|Forbidden/);
		if (kind === 'good') expect(shown).not.toMatch(/Couldn.t connect/);
		else expect(shown).not.toContain('Connection tested successfully');
		await page.keyboard.press('Escape');
	});

	it('offers "Custom API Call" among the actions, which points to the HTTP Request node', async () => {
		await open('vpExampleManual');
		await editor.openNode(CREATE);
		await editor.openOptions('operation');
		const customCall = editor.option('Custom API Call');
		await customCall.waitFor();
		await pictures.take(page, 'custom-api-call.png');
		await customCall.click();
		await page.getByText('Use the HTTP Request node to make a custom API call').waitFor();
		expect(await page.getByText("We'll take care of the Video Platform auth for you").isVisible()).toBe(true);
	});
});
