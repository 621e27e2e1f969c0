import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Browser, Locator, Page, Response } from 'playwright-core';
import { chromium, errors } from 'playwright-core';

import { scratchRoot } from '../../tools/common/paths';
import { OWNER, ensureOwner, rest } from '../../tools/n8n/api';
import { defaultVersion, majorOf } from '../../tools/install/versions';
import { DOCS_DIR, MANIFEST, RETAKE, type ScreenshotManifest, editorDigest, picturesInDocs } from '../helpers/screenshots';
import { settled, stillScreenshot, textChanged, waitFor } from './pageWaits';

const CHROMIUM = '/usr/bin/chromium';
const NDV = '[data-test-id="ndv"]';
const CREDENTIAL_DIALOG = '[data-test-id="credential-edit-dialog"]';
const COPY_TIMEOUT_MS = 10_000;

/** Debian's Chromium, headless, with nothing that reaches out of the machine. */
export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
}

/** A page signed in as the owner, allowed to read what the editor copies. */
export async function signIn(browser: Browser, baseUrl: string): Promise<Page> {
	const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
	await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
	const page = await context.newPage();
	// Leaving a workflow with unsaved edits asks first; the tests leave them on purpose.
	page.on('dialog', (dialog) => void dialog.accept());
	await page.goto(`${baseUrl}/signin`);
	await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
	await page.fill('input[name=password]', OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.includes('signin'));
	return page;
}

/**
 * The Production URL n8n registered for a webhook, in n8n's own words: its REST API finds the
 * webhook by the path (`POST /rest/webhooks/find`) and gives the webhook base URL (`/rest/settings`).
 */
export async function webhookUrlFromRest(baseUrl: string, copied: string): Promise<string> {
	const cookie = await ensureOwner(baseUrl);
	const settings = (await rest(baseUrl, '/rest/settings', { cookie })).data.data;
	const prefix = `${String(settings.urlBaseWebhook).replace(/\/$/, '')}/${settings.endpointWebhook}/`;
	const found = (await rest(baseUrl, '/rest/webhooks/find', { method: 'POST', cookie, body: { method: 'POST', path: copied.slice(prefix.length) } })).data.data;
	return `${prefix}${found.webhookPath}`;
}

/**
 * Where pictures go: every run keeps them in .scratch/screenshots/<version>; with
 * VIDEOPLATFORM_UPDATE_SCREENSHOTS=1 the default version's pictures that the docs show replace
 * those in docs/, and the manifest records the editor digest they show (docs/development.md,
 * "The docs' pictures"). A picture no page shows stays in .scratch.
 */
export class Pictures {
	private readonly taken: string[] = [];
	readonly dir: string;
	private readonly toDocs: boolean;
	private readonly shown = new Set(picturesInDocs());

	constructor(private readonly version: string) {
		this.toDocs = process.env.VIDEOPLATFORM_UPDATE_SCREENSHOTS === '1' && version === defaultVersion();
		this.dir = path.join(scratchRoot, 'screenshots', version);
	}

	async take(page: Page, name: string): Promise<void> {
		const toDocs = this.toDocs && this.shown.has(name);
		const dir = toDocs ? DOCS_DIR : this.dir;
		fs.mkdirSync(dir, { recursive: true });
		// Dialogs and lists fade in; a picture taken at once can be half transparent.
		fs.writeFileSync(path.join(dir, name), await stillScreenshot(page, `the picture ${name}`));
		if (toDocs) this.taken.push(name);
	}

	/** Adds this run's pictures to the manifest (the other test files' entries stay). */
	record(): void {
		if (!this.toDocs || this.taken.length === 0) return;
		const manifest: ScreenshotManifest = fs.existsSync(MANIFEST) ? JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) : { retake: RETAKE, pictures: {} };
		const digest = editorDigest();
		for (const name of this.taken) manifest.pictures[name] = { n8n: this.version, editorDigest: digest };
		manifest.pictures = Object.fromEntries(Object.entries(manifest.pictures).sort(([a], [b]) => a.localeCompare(b)));
		fs.writeFileSync(MANIFEST, `${JSON.stringify({ ...manifest, retake: RETAKE }, null, '\t')}\n`);
	}
}

const SEARCH_BAR = '[data-test-id="node-creator-search-bar"]';

/**
 * Types `term` as a user does into the node creator just opened, once its search box has the
 * focus: keys typed while the creator still opens (a loaded machine) land elsewhere and are lost.
 */
export async function typeNodeSearch(page: Page, term: string): Promise<void> {
	const focused = `document.activeElement?.matches(${JSON.stringify(SEARCH_BAR)}) === true`;
	await waitFor("the node creator's search box had the focus", (timeout) => page.waitForFunction(focused, undefined, { timeout }));
	await page.keyboard.type(term);
}

/** The node creator's list for `term`: its search box holds the whole term and the list stopped changing. */
export async function nodeSearchSettled(page: Page, term: string): Promise<void> {
	const typed = `document.querySelector(${JSON.stringify(SEARCH_BAR)})?.value === ${JSON.stringify(term)}`;
	await waitFor(`the node creator's search box held "${term}"`, (timeout) => page.waitForFunction(typed, undefined, { timeout })).catch(async (error: Error) => {
		const held = await page.locator(SEARCH_BAR).first().inputValue({ timeout: 1000 }).catch(() => '(no search box)');
		throw new Error(`${error.message}; it held ${JSON.stringify(held)}`);
	});
	await settled(page, `the node creator listed what "${term}" finds`);
}

/** The editor's controls the tests use; the few that differ between 1.x and 2.x are told apart here. */
export class Editor {
	constructor(
		readonly page: Page,
		readonly major: number,
	) {}

	async openWorkflow(url: string): Promise<void> {
		await this.page.goto(url);
		await this.page.locator('[data-test-id="node-creator-plus-button"]').waitFor();
	}

	/** Opens the node creator (from the canvas's +) and types a search; returns the entries it lists. */
	async searchNodes(term: string): Promise<string[]> {
		await this.page.locator('[data-test-id="node-creator-plus-button"]').click();
		await typeNodeSearch(this.page, term);
		const items = this.page.locator('[data-test-id="node-creator-item-name"]');
		await items.first().waitFor();
		await nodeSearchSettled(this.page, term);
		return await items.allTextContents();
	}

	async closeNodeCreator(): Promise<void> {
		await this.page.keyboard.press('Escape');
		await this.page.locator('[data-test-id="node-creator-item-name"]').first().waitFor({ state: 'hidden' });
	}

	/** In the node creator: the entry, then one of its triggers or actions, which opens its node panel. */
	async pick(entry: string, action: string): Promise<void> {
		await this.page.locator('[data-test-id="node-creator-item-name"]', { hasText: entry }).first().click();
		await this.page.getByText(action, { exact: true }).first().click();
		await this.ndv().waitFor();
	}

	ndv(): Locator {
		return this.page.locator(NDV).first();
	}

	async openNode(name: string): Promise<void> {
		await this.page.locator('[data-test-id="canvas-node"]', { hasText: name }).first().dblclick();
		await this.ndv().waitFor();
	}

	async closeNode(): Promise<void> {
		await this.page.keyboard.press('Escape');
		await this.ndv().waitFor({ state: 'hidden' });
	}

	/** The node panel's text, with the trigger panel's "When will this node trigger my flow?" opened. */
	async triggerPanelText(): Promise<string> {
		const before = await this.ndv().innerText();
		await this.page.getByText('When will this node trigger my flow?').click();
		await textChanged(this.page, NDV, before, 'the trigger panel\'s "When will this node trigger my flow?" opened');
		await settled(this.page, 'the trigger panel opened');
		return (await this.ndv().innerText()).replace(/\s+/g, ' ');
	}

	/** Whether a node hint with this text is on screen, once the editor has applied the last change. */
	async hintShown(text: string): Promise<boolean> {
		await settled(this.page, `the editor applied the last change before the hint "${text}" was read`);
		return (await this.page.locator('[data-test-id="node-hint"]:visible', { hasText: text }).count()) > 0;
	}

	/** Types into a field (a plain one or an expression), then clicks beside it, as a user leaves a field. */
	async fillParameter(name: string, value: string): Promise<void> {
		const field = this.page.locator(`[data-test-id="parameter-input-${name}"]`);
		const expression = field.locator('.cm-content');
		if (await expression.count()) {
			await expression.first().click();
			await this.page.keyboard.press('ControlOrMeta+a');
			await this.page.keyboard.press('Backspace');
			if (value) await this.page.keyboard.type(value);
		} else {
			await field.locator('input').first().fill(value);
		}
		await this.page.locator('[data-test-id="output-panel"]').click({ position: { x: 200, y: 400 } });
	}

	async openOptions(name: string): Promise<void> {
		await this.page.locator(`[data-test-id="parameter-input-${name}"]`).click();
	}

	option(text: string): Locator {
		return this.page.locator('[role=option]:visible, .el-select-dropdown__item:visible', { hasText: text }).first();
	}

	async chooseOption(name: string, text: string): Promise<void> {
		await this.openOptions(name);
		await this.option(text).click();
	}

	/** Webhook URLs → Test URL or Production URL, then a click on the URL, which copies it; returns what was copied. */
	async copyWebhookUrl(which: 'Test URL' | 'Production URL'): Promise<string> {
		const urls = this.page.locator('.webhook-url');
		if (!(await urls.first().isVisible())) await this.page.getByText('Webhook URLs').first().click();
		await this.webhookUrlChoice(which).click();
		return await this.copiedWebhookUrl(which, () => urls.first().click());
	}

	/**
	 * What `click` (on a shown webhook URL) copied. The copy is asynchronous and the switch re-renders
	 * the URL, so the clipboard is emptied first and read until it holds a URL of the chosen kind.
	 * The clipboard has no change event, hence the polling; not by waitForFunction, which takes the
	 * promise readText() returns for a true answer without awaiting it.
	 */
	async copiedWebhookUrl(which: 'Test URL' | 'Production URL', click: () => Promise<void>): Promise<string> {
		const kind = which === 'Test URL' ? '/webhook-test/' : '/webhook/';
		await this.page.evaluate("navigator.clipboard.writeText('')");
		await click();
		const copied = (await this.page.evaluate(`(async () => {
			for (const until = Date.now() + ${COPY_TIMEOUT_MS}; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 100))) {
				const text = await navigator.clipboard.readText();
				if (text.includes(${JSON.stringify(kind)})) return text;
			}
			return '';
		})()`)) as string;
		if (!copied) throw new Error(`Not within ${COPY_TIMEOUT_MS / 1000} s: the clipboard held the ${which} (a URL with ${kind}) after the click on it`);
		return copied;
	}

	/**
	 * The Test URL / Production URL switch. Not the first text of that name: n8n 2.41 also has a
	 * <strong>Production URL</strong> under the switch's container, which takes the click.
	 */
	webhookUrlChoice(which: 'Test URL' | 'Production URL'): Locator {
		const value = which === 'Test URL' ? 'test' : 'production';
		return this.page.locator(`[data-test-id="radio-button-${value}"], label:has-text("${which}")`).first();
	}

	/** The trigger panel's button; returns once n8n has answered that it listens on the Test URL. */
	async listenForTestEvent(): Promise<void> {
		// n8n registers the test webhook before it answers the editor's run request.
		const isRun = (response: Response) => response.request().method() === 'POST' && /\/rest\/workflows\/[^/]+\/run$/.test(new URL(response.url()).pathname);
		const [answer] = await Promise.all([
			waitFor('n8n answered the editor\'s request to listen for a test event (POST /rest/workflows/<id>/run)', (timeout) => this.page.waitForResponse(isRun, { timeout })),
			this.page.locator('[data-test-id="trigger-execute-button"]').first().click(),
		]);
		if (!answer.ok()) throw new Error(`n8n refused to listen for a test event: HTTP ${answer.status()} ${await answer.text()}`);
	}

	async executeStep(): Promise<void> {
		await this.page.locator('[data-test-id="node-execute-button"]:visible').first().click();
	}

	/** The canvas's "Execute workflow" button: a manual run of the whole workflow. */
	async executeWorkflow(): Promise<void> {
		await this.page.locator('[data-test-id="execute-workflow-button"]:visible').first().click();
	}

	/** The first toast n8n shows, once it is there. */
	async toast(): Promise<Locator> {
		const toast = this.page.locator('.el-notification:visible').first();
		await toast.waitFor();
		return toast;
	}

	/**
	 * Opens a saved credential, whose connection n8n tests on opening (else a save tests it); returns
	 * the dialog's text once the result shows, its details opened.
	 */
	async openCredentialTested(url: string, apiKey: string): Promise<string> {
		await this.page.goto(url);
		const dialog = this.page.locator(CREDENTIAL_DIALOG).first();
		await dialog.waitFor();
		// The success banner is always there, hidden until a test passes.
		const passed = dialog.locator('[data-test-id="credentials-config-container-test-success"]').filter({ visible: true });
		// n8n writes Couldn’t with a typographic apostrophe.
		const failed = dialog.getByText(/Couldn.t connect with these settings/);
		const result = passed.or(failed).first();
		const shown = async (timeout: number) => {
			try {
				await result.waitFor({ timeout });
				return true;
			} catch (error) {
				if (error instanceof errors.TimeoutError) return false;
				throw error;
			}
		};
		if (!(await shown(10_000))) {
			await dialog.locator('[data-test-id="parameter-input-apiKey"] input').first().fill(apiKey);
			await this.page.locator('[data-test-id="credential-save-button"]').first().click();
			if (!(await shown(30_000))) throw new Error(`No test result in the credential dialog: ${await dialog.innerText()}`);
		}
		const details = dialog.getByText('More details', { exact: true });
		if (await details.isVisible()) {
			const before = await dialog.innerText();
			await details.click();
			await textChanged(this.page, CREDENTIAL_DIALOG, before, 'the credential test\'s "More details" opened');
		}
		await settled(this.page, 'the credential dialog showed its test result');
		return (await dialog.innerText()).replace(/\s+/g, ' ');
	}

	async waitForOutput(text: string): Promise<void> {
		await this.page.locator('[data-test-id="output-panel"]').getByText(text).first().waitFor();
		await settled(this.page, `the output panel finished showing "${text}"`);
	}
}

export function editorFor(version: string, page: Page): Editor {
	return new Editor(page, majorOf(version));
}
