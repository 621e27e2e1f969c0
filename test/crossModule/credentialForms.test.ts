import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { VideoPlatformWebhookApi } from '../../credentials/VideoPlatformWebhookApi.credentials';

// Both credentials' forms (cross-module): what a user sees and must fill in before anything is sent.
describe('the credential forms users fill in', () => {
	// GitHub's anchor for a README heading: lower case, spaces as hyphens, other punctuation dropped.
	const readmeAnchors = () =>
		[...readFileSync(join(__dirname, '../../README.md'), 'utf8').matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
			heading.toLowerCase().replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-'),
		);

	it.each([
		['Video Platform API', () => new VideoPlatformApi(), { baseUrl: '', apiKey: '' }],
		// The header name is not the platform's (the spec names none): a common one to start from.
		['Video Platform Webhook Secret', () => new VideoPlatformWebhookApi(), { headerName: 'X-Webhook-Secret', secret: '' }],
	])('%s: every field is required, secrets start empty, and its documentation link opens a README section', (_name, make, defaults) => {
		const { properties, documentationUrl } = make();
		const fields = properties.filter((p) => p.type !== 'notice');
		expect(fields.every((p) => p.required === true)).toBe(true);
		expect(Object.fromEntries(fields.map((p) => [p.name, p.default]))).toEqual(defaults);
		const [page, anchor] = documentationUrl.split('#');
		expect(page).toBe('https://github.com/videoplatform/n8n-nodes-videoplatform');
		expect(readmeAnchors()).toContain(anchor);
	});

	it.each([
		['Video Platform API', () => new VideoPlatformApi()],
		['Video Platform Webhook Secret', () => new VideoPlatformWebhookApi()],
	])("%s: the words on the form (labels, hints, placeholders) change only on purpose: a change shows in the snapshot", (_name, make) => {
		const words = make().properties.map(({ name, displayName, hint, placeholder, description }) => ({ name, displayName, hint, placeholder, description }));
		expect(words).toMatchSnapshot();
	});
});
