// The package as users see it: the packed tarball in real n8n 2.x and 1.x (one start each, as
// `npm start` sets it up), driven in Debian's Chromium by playwright-core. Only the editor's
// words and controls differ between the two (test/e2e/editor.ts).
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { defaultVersion } from '../../tools/install/versions';
import { repoRoot, scratchRoot } from '../../tools/common/paths';
import { startEnvironment } from '../../tools/start';
import { type Editor, editorFor, launchChromium, signIn, Pictures, webhookUrlFromRest } from './editor';
import { packedTarball } from './packedTarball';

const VERSIONS = [defaultVersion(), defaultVersion(1)];
const CREATE = 'Create a room';
const NAME_HINT = 'Name is empty for the first input item';
const KEY_HINT = 'Delivery Key finds no key in the first input item';
const AUTH_HINT = 'Authentication is None: anyone who knows';
const ENTRY = 'Video Platform';
// The trigger panel's words (trigger/guidance.ts) for a workflow not active yet, and for an active one.
const PANEL_INACTIVE = 'To run the workflow on its own, copy the Production URL';
const PANEL_ACTIVE = 'This workflow is published (n8n 1.x: active), so deliveries';

describe.each(VERSIONS)('the Video Platform nodes in a real browser, n8n %s', (version) => {
	let environment: Awaited<ReturnType<typeof startEnvironment>>;
	let browser: Browser;
	let page: Page;
	let editor: Editor;
	const pictures = new Pictures(version);
	const open = async (workflow: string) => await editor.openWorkflow(`${environment.n8n.baseUrl}/workflow/${workflow}`);

	beforeAll(async () => {
		execFileSync('bash', [path.join(repoRoot, 'tools', 'install', 'chromium.sh')], { stdio: 'inherit' });
		environment = await startEnvironment({
			version,
			userFolder: path.join(scratchRoot, `e2e-browser-${version}-${process.pid}`),
			port: 0,
			sandboxPort: 0,
			tarball: await packedTarball(),
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
		await pictures.take(page, 'node-creator-search.png');
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

	it('offers "Custom API Call" among the actions, which points to the HTTP Request node', async () => {
		await open('vpExampleManual');
		await editor.openNode(CREATE);
		await editor.openOptions('operation');
		const customCall = editor.option('Custom API Call');
		await customCall.waitFor();
		// The list fades in; a picture taken at once would be half transparent.
		await page.waitForTimeout(500);
		await pictures.take(page, 'custom-api-call.png');
		await customCall.click();
		await page.getByText('Use the HTTP Request node to make a custom API call').waitFor();
		expect(await page.getByText("We'll take care of the Video Platform auth for you").isVisible()).toBe(true);
	});
});
