import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import { OWNER } from '../../tools/n8n/api';
import { defaultVersion } from '../../tools/install/versions';
import { repoRoot, scratchRoot } from '../../tools/common/paths';
import { startEnvironment } from '../../tools/start';

const CHROMIUM = '/usr/bin/chromium';
// The README's pictures change only when asked, so that a test run leaves the tree clean.
const DOCS =
	process.env.VIDEOPLATFORM_UPDATE_SCREENSHOTS === '1'
		? path.join(repoRoot, 'docs')
		: path.join(scratchRoot, 'screenshots');

// The editor's selectors are those of the default 2.x, which `npm start` runs.
describe(`the Video Platform node, seen in a real browser (n8n ${defaultVersion()})`, () => {
	let environment: Awaited<ReturnType<typeof startEnvironment>>;
	let browser: Browser;
	let page: Page;

	beforeAll(async () => {
		execFileSync('bash', [path.join(repoRoot, 'tools', 'install', 'chromium.sh')], { stdio: 'inherit' });
		environment = await startEnvironment({
			userFolder: path.join(scratchRoot, `e2e-browser-${process.pid}`),
			port: 0,
			sandboxPort: 0,
			log: () => undefined,
		});
		browser = await chromium.launch({
			executablePath: CHROMIUM,
			args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
		});
		page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		await page.goto(`${environment.n8n.baseUrl}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.fill('input[name=password]', OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => !url.pathname.includes('signin'));
	}, 15 * 60_000);

	afterAll(async () => {
		await browser?.close();
		await environment?.n8n.dispose();
		await environment?.sandbox.stop();
	});

	it('finds "Video Platform" in the node panel', async () => {
		await page.goto(`${environment.n8n.baseUrl}/workflow/new`);
		await page.locator('[data-test-id="node-creator-plus-button"]').click();
		await page.keyboard.type('Video Platform');
		const items = page.locator('[data-test-id="node-creator-item-name"]', { hasText: 'Video Platform' });
		await items.first().waitFor();
		expect(await items.allTextContents()).toContain('Video Platform');
	});

	it('opens the node and shows its resource, operation, name and type fields', async () => {
		await page.goto(`${environment.n8n.baseUrl}/workflow/vpExampleManual`);
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Create a room' }).dblclick();
		for (const label of ['Resource', 'Operation', 'Name', 'Type']) {
			await expect(page.getByText(label, { exact: true }).first().isVisible()).resolves.toBe(true);
		}
		fs.mkdirSync(DOCS, { recursive: true });
		await page.screenshot({ path: path.join(DOCS, 'node-parameters.png') });
	});

	it('runs the example and shows the room the sandbox created', async () => {
		// The labelled button in the node's panel, not the icon-only one on the canvas behind it.
		await page.locator('button:visible', { hasText: 'Execute step' }).first().click();
		await page.getByText('My first room').last().waitFor();
		await page.waitForTimeout(500);
		expect(environment.sandbox.state.rooms.map((room: { name: string }) => room.name)).toContain('My first room');
		await page.screenshot({ path: path.join(DOCS, 'example-run.png') });
	});

	it('offers "Custom API Call" among the actions, which points to the HTTP Request node', async () => {
		await page.goto(`${environment.n8n.baseUrl}/workflow/vpExampleManual`);
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Create a room' }).dblclick();
		await page.locator('[data-test-id="parameter-input-operation"]').click();
		const customCall = page.locator('[role=option]:visible, .el-select-dropdown__item:visible', { hasText: 'Custom API Call' }).first();
		await customCall.waitFor();
		// The list fades in; a picture taken at once would be half transparent.
		await page.waitForTimeout(500);
		await page.screenshot({ path: path.join(DOCS, 'custom-api-call.png') });
		await customCall.click();
		await page.getByText('Use the HTTP Request node to make a custom API call').waitFor();
		expect(await page.getByText("We'll take care of the Video Platform auth for you").isVisible()).toBe(true);
	});
});
