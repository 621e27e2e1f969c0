import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * How long a test watches for something that must NOT happen (a request sent after a stop, say):
 * only time can show that, and a request to 127.0.0.1 arrives within a few milliseconds.
 */
export const WATCH_FOR_NOTHING_MS = 150;

export const watchForNothing = async () => await delay(WATCH_FOR_NOTHING_MS);

/** Resolves once `condition` holds (checked every few milliseconds); fails after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
	for (const giveUpAt = Date.now() + timeoutMs; !condition(); ) {
		if (Date.now() > giveUpAt) throw new Error(`condition not met within ${timeoutMs} ms`);
		await delay(2);
	}
}

// Node publishes here when an answer's headers reach an HTTP client of this process (n8n-core's too).
const ANSWER_HEADERS = 'http.client.response.finish';

/**
 * Watches the answers whose headers reach this process's HTTP clients, so that a test waits for an
 * answer to arrive rather than for a guessed time. Call `stop` when done.
 */
export function watchAnswers() {
	const statuses: number[] = [];
	const onAnswer = (message: unknown) => statuses.push((message as { response: IncomingMessage }).response.statusCode ?? 0);
	diagnostics.subscribe(ANSWER_HEADERS, onAnswer);
	const count = (status: number) => statuses.filter((seen) => seen === status).length;
	return {
		statuses,
		/** Resolves once `times` answers with `status` have arrived. */
		arrived: async (status: number, times = 1) => await until(() => count(status) >= times),
		stop: () => diagnostics.unsubscribe(ANSWER_HEADERS, onAnswer),
	};
}
