// Imported first by each node file, so that it runs before any other module of the package.
import { NodeConnectionTypes } from 'n8n-workflow';

/** The oldest n8n this package is tested on (engines.n8n in package.json; docs/self-hosting.md, "n8n versions"). */
const OLDEST_SUPPORTED_N8N = '1.85.4';

/**
 * Refuses to load in an n8n older than the package supports, with a message the user can act on.
 * Without it, the nodes' first use of NodeConnectionTypes (in n8n-workflow from the one n8n 1.85
 * ships) fails as a TypeError, which n8n's loader reports as "Class could not be found".
 */
function assertSupportedN8n(): void {
	if (typeof NodeConnectionTypes === 'object' && NodeConnectionTypes !== null) return;
	throw new Error(
		`n8n-nodes-videoplatform needs n8n ${OLDEST_SUPPORTED_N8N} or newer, and this n8n is older (its n8n-workflow has no NodeConnectionTypes). Update n8n and restart it; the package itself needs no change.`,
	);
}

assertSupportedN8n();
