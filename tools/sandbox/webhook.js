'use strict';
// Sends an example delivery to a webhook URL, so that users can try the trigger before the
// platform publishes its event kinds. The payload is labelled as an example, on purpose.

function samplePayload() {
	return {
		example: true,
		note: 'Example payload sent by the local sandbox. The platform has not published its event kinds or payload shape.',
		id: `example-${Date.now()}`,
		sentAt: new Date().toISOString(),
		data: { room: { name: 'Example room', type: 'conference' } },
	};
}

/**
 * @param {string | undefined} target  a webhook URL
 * @param {{ headers?: Record<string, string>, payload?: unknown }} [options]
 * @returns {Promise<{ sent: boolean, error?: string, status?: number, answer?: string, payload?: any }>} what was sent and answered, or why nothing was
 */
async function sendSampleDelivery(target, { headers = {}, payload = samplePayload() } = {}) {
	if (!/^https?:\/\//.test(String(target))) {
		return { sent: false, error: 'Give the webhook URL to send to, e.g. http://127.0.0.1:5678/webhook/...' };
	}
	const response = await fetch(String(target), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...headers },
		body: JSON.stringify(payload),
	});
	return { sent: true, status: response.status, answer: (await response.text()).slice(0, 500), payload };
}

module.exports = { sendSampleDelivery, samplePayload };
