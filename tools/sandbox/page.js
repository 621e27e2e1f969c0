'use strict';
// The read-only page a user opens to see what their workflow sent.

/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (/** @type {unknown} */ text) => String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);

/**
 * @param {import('./server').SandboxState} state
 * @param {string} note
 * @param {{ name: string, url: string }[]} [targets]  trigger URLs to offer
 */
function renderPage(state, note, targets = []) {
	const offered = targets.map((t) => `<option value="${escape(t.url)}">${escape(t.name)}</option>`).join('');
	const rooms = state.rooms
		.map((room) => `<tr><td><a href="${escape(room.link)}">${escape(room.name)}</a></td><td>${escape(room.type)}</td><td>${escape(room.id)}</td><td>${escape(room.createdAt)}</td></tr>`)
		.join('');
	const requests = state.requests
		.slice()
		.reverse()
		.map((r) => `<tr><td>${escape(r.at)}</td><td>${escape(r.method)} ${escape(r.path)}</td><td>${r.status}</td><td>${escape(r.authorization)}</td><td><code>${escape(r.body)}</code></td></tr>`)
		.join('');
	const deliveries = state.deliveries
		.slice()
		.reverse()
		.map((d) => `<tr><td>${escape(d.at)}</td><td>${escape(d.target)}</td><td>${d.status === undefined ? escape(d.error ?? 'sending...') : `HTTP ${d.status} <code>${escape(d.answer ?? '')}</code>`}</td></tr>`)
		.join('');
	return `<!doctype html><html><head><meta charset="utf-8"><title>Video Platform sandbox</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}.note{background:#fff4ce;padding:8px}</style></head>
<body><h1>Video Platform local sandbox</h1>
<p class="note">This is not the platform. It implements only what the API reference states (POST /v1/rooms with a Bearer key and a JSON body of name and type). ${escape(note)}</p>
<h2>Rooms (${state.rooms.length})</h2><table><tr><th>Name</th><th>Type</th><th>Id (sandbox)</th><th>Created</th></tr>${rooms}</table>
<h2>Recent requests</h2><table><tr><th>At</th><th>Request</th><th>Status</th><th>Authorization</th><th>Body</th></tr>${requests}</table>
<h2>Send an example webhook delivery</h2>
<p>Posts an <strong>example</strong> payload (not a platform event: the platform has not published its event kinds) to a Video Platform Trigger's URL.</p>
<p>${targets.length ? 'The active workflows with a Video Platform Trigger are offered in the field; pick one or paste another Production URL.' : 'Paste the Production URL of an active workflow with a Video Platform Trigger (open the trigger node in n8n to copy it).'}</p>
<form id="send"><input id="target" list="targets" size="90" value="${escape(targets[0]?.url ?? '')}" placeholder="e.g. http://127.0.0.1:5678/webhook/.../webhook"><datalist id="targets">${offered}</datalist> <button>Send example delivery</button></form>
<pre id="result"></pre>
<h2>Example deliveries sent (${state.deliveries.length})</h2><table><tr><th>At</th><th>To</th><th>Answer</th></tr>${deliveries}</table>
<script>
document.getElementById('send').addEventListener('submit', async (event) => {
	event.preventDefault();
	const response = await fetch('/_sandbox/send-webhook', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ target: document.getElementById('target').value }) });
	if (response.ok) return location.reload(); // the table of deliveries sent shows the new one
	document.getElementById('result').textContent = JSON.stringify(await response.json(), null, 2);
});
</script>
<p>JSON: <a href="/_sandbox/state">/_sandbox/state</a></p></body></html>`;
}

/**
 * What a room's link opens: the sandbox's stand-in for a platform's room.
 * @param {import('./server').Room} room
 * @param {string} note
 */
function renderRoomPage(room, note) {
	return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(room.name)}: Video Platform sandbox</title></head>
<body style="font-family:sans-serif;margin:2em"><h1>${escape(room.name)}</h1>
<p>A room of the local sandbox. On your platform, the room's link opens the room itself. ${escape(note)}</p>
<p><a href="/">All rooms and requests</a></p></body></html>`;
}

module.exports = { renderPage, renderRoomPage };
