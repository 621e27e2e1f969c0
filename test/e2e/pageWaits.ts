import { errors } from 'playwright-core';
import type { Page } from 'playwright-core';

const TIMEOUT_MS = 10_000;

/**
 * How long the page must stay unchanged to count as settled. n8n applies a typed value after a
 * 200 ms pause in which nothing on the page changes (its expression editor's debounce), and no
 * event marks the end of that pause; so twice that.
 */
const QUIET_MS = 400;

/**
 * Runs in the page: true once no element changed for `quietMs` and no finite animation (a fade, a
 * slide) runs. The first call installs the observer; endless ones (a spinner) never finish.
 */
const quietFor = (quietMs: number) => `(() => {
	if (window.lastDomChange === undefined) {
		window.lastDomChange = performance.now();
		new MutationObserver(() => { window.lastDomChange = performance.now(); })
			.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
	}
	const moving = document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
	return !moving && performance.now() - window.lastDomChange >= ${quietMs};
})()`;

/** Waits for `wait`; a timeout fails naming what did not happen. */
export async function waitFor<T>(what: string, wait: (timeoutMs: number) => Promise<T>, timeoutMs = TIMEOUT_MS): Promise<T> {
	try {
		return await wait(timeoutMs);
	} catch (error) {
		if (error instanceof errors.TimeoutError) throw new Error(`Not within ${timeoutMs / 1000} s: ${what}`);
		throw error;
	}
}

/** Waits until the page stopped changing: the editor has applied the last input and its fades ended. */
export async function settled(page: Page, what: string): Promise<void> {
	await waitFor(`${what} (the page kept changing)`, (timeout) => page.waitForFunction(quietFor(QUIET_MS), undefined, { polling: 50, timeout }));
}

/** Waits until the element's text differs from `before`: the click on it took effect. */
export async function textChanged(page: Page, selector: string, before: string, what: string): Promise<void> {
	const expression = `document.querySelector(${JSON.stringify(selector)})?.innerText !== ${JSON.stringify(before)}`;
	await waitFor(what, (timeout) => page.waitForFunction(expression, undefined, { polling: 50, timeout }));
}

/**
 * A screenshot once the page settled and two screenshots in a row are the same, so a picture is
 * never taken half faded in. Endless animations are held at their start, else no two would match.
 */
export async function stillScreenshot(page: Page, what: string): Promise<Buffer> {
	await settled(page, what);
	const shot = () => page.screenshot({ animations: 'disabled' });
	let last = await shot();
	for (const until = Date.now() + TIMEOUT_MS; Date.now() < until; ) {
		const next = await shot();
		if (next.equals(last)) return next;
		last = next;
	}
	throw new Error(`Not within ${TIMEOUT_MS / 1000} s: ${what} (two screenshots in a row were never the same)`);
}
