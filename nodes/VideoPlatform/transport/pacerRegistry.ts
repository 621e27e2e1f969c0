import { createHash } from 'node:crypto';

import { RequestPacer } from './pacer';
import type { Clock } from './rateLimit';
import { systemClock } from './rateLimit';

/** Far more credentials than one process uses at once; the least recently used goes first. */
const MAX_PACERS = 64;

/**
 * One pacer per credential, Base URL and API key in this process, so that executions sending with the same
 * API key run at the platform's rate together instead of each learning its own share and keeping
 * it. Across processes (queue-mode workers) nothing is shared; each process learns and recovers.
 */
export class PacerRegistry {
	private readonly pacers = new Map<string, RequestPacer>();

	constructor(private readonly clock: Clock) {}

	/**
	 * Without a credential id (a run with no saved credential) the run gets a pacer of its own. A
	 * new key in the same credential may have a limit of its own, so it gets a new pacer; the key is
	 * kept only inside a digest.
	 */
	pacerFor(credentialId: string | undefined, baseUrl: string, apiKey: string): RequestPacer {
		if (!credentialId) return new RequestPacer(this.clock);
		const key = createHash('sha256').update(JSON.stringify([credentialId, baseUrl, apiKey])).digest('hex');
		const pacer = this.pacers.get(key) ?? new RequestPacer(this.clock);
		this.pacers.delete(key);
		this.pacers.set(key, pacer);
		if (this.pacers.size > MAX_PACERS) this.pacers.delete(this.pacers.keys().next().value as string);
		return pacer;
	}

	get size(): number {
		return this.pacers.size;
	}
}

export const sharedPacers = new PacerRegistry(systemClock);
