'use strict';
// n8n in queue mode in one call, set up for a test, a bench or `npm start -- --queue`: an N8n
// (tools/n8n/n8n.js) in queue mode with the packed package on every process, credentials and
// workflows imported before it starts (the first CLI command creates the schema: one command
// at a time, before any process starts), then started, with the workflows in `activate`
// published through the main process's public API.
//
//   const n8n = await startQueueStack({ tarball, dir, credentials, workflows, activate, log, version });
//   n8n.baseUrl, n8n.webhookUrl, n8n.workers, n8n.api, n8n.executionsByWorker(), n8n.stop()
const { N8n } = require('../n8n/n8n');
const wf = require('../n8n/workflows');

/**
 * Starts PostgreSQL, Redis and the n8n processes, all on 127.0.0.1 and free ports (the main
 * process on `mainPort` when given), in `dir`, made anew.
 * @param {object} options
 * @param {string} options.tarball  the packed package
 * @param {string[]} [options.moreTarballs]  other packed node packages installed beside it (a bench's yardsticks)
 * @param {string} options.dir
 * @param {number} [options.workers]
 * @param {number} [options.concurrency]
 * @param {number} [options.webhookProcessors]
 * @param {import('../n8n/n8n').Credential[]} [options.credentials]
 * @param {import('../n8n/n8n').Workflow[]} [options.workflows]
 * @param {string[]} [options.activate]  ids of workflows to publish
 * @param {number} [options.mainPort]
 * @param {string} [options.version]
 * @param {import('../n8n/n8n').Env} [options.env]  added to every process's environment
 * @param {boolean} [options.editor]  false: the main process serves no editor (N8n's editor option)
 * @param {(message: string) => void} [options.log]
 * @returns {Promise<N8n>}
 */
async function startQueueStack(options) {
	const { tarball, moreTarballs = [], workers, concurrency, webhookProcessors, credentials = [], workflows = [], activate = [], mainPort, version, env, log, editor } = options;
	const n8n = new N8n({ version, userFolder: options.dir, port: mainPort, log, queue: { workers, concurrency, webhookProcessors, env }, editor });
	try {
		await n8n.prepare();
		for (const packed of [tarball, ...moreTarballs]) n8n.installPackage(packed);
		if (credentials.length) await n8n.importCredentials(credentials);
		if (workflows.length) await n8n.importWorkflows(workflows);
		if (!credentials.length && !workflows.length) await n8n.exportAll('workflow');
		for (const id of activate) await n8n.activateWorkflow(id);
		await n8n.start();
	} catch (error) {
		await n8n.stop().catch(() => undefined);
		throw error;
	}
	return n8n;
}

/**
 * A workflow that a POST to /webhook/<path> starts (on a worker, in queue mode): `rows` become
 * items, each one a Room → Create named after the row. The node is named "Create rooms".
 * @param {string} id
 * @param {string} path
 * @param {Record<string, unknown>[]} rows
 * @param {string} credentialId
 * @param {Record<string, unknown>} [options]  the node's options
 */
function roomBatchWorkflow(id, path, rows, credentialId, options = {}) {
	const webhookId = `${id}-hook`;
	return wf.workflow(id, [wf.webhookTrigger(path, webhookId), ...wf.itemsFrom('Rows', rows), wf.createRoom('Create rooms', credentialId, {}, options)]);
}

module.exports = { startQueueStack, roomBatchWorkflow };
