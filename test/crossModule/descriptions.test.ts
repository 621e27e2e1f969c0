import type { ICredentialType } from 'n8n-workflow';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { VideoPlatformWebhookApi } from '../../credentials/VideoPlatformWebhookApi.credentials';
import { VideoPlatform } from '../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../nodes/VideoPlatform/VideoPlatformTrigger.node';

// Everything n8n reads from the package to draw the editor and to tell an AI agent what the nodes
// do (cross-module): both node descriptions and both credentials, serialised as n8n's node types
// endpoint sends them (JSON: functions left out). A change of structure leaves it byte-identical;
// a change a user would see shows in the snapshot and is made on purpose.
describe('what n8n reads from the package', () => {
	const serialised = (value: object) => JSON.stringify(value, null, '\t');

	it.each([
		['Video Platform node', () => new VideoPlatform().description],
		['Video Platform Trigger node', () => new VideoPlatformTrigger().description],
	])('the %s description changes only on purpose: any change shows in the snapshot', (_name, describe) => {
		expect(serialised(describe())).toMatchSnapshot();
	});

	it.each([
		['Video Platform API', () => new VideoPlatformApi()],
		['Video Platform Webhook Secret', () => new VideoPlatformWebhookApi()],
	])('the %s credential (its fields and its Test request) changes only on purpose', (_name, make) => {
		const { name, displayName, documentationUrl, icon, properties, authenticate, test }: ICredentialType = make();
		expect(serialised({ name, displayName, documentationUrl, icon, properties, authenticate, test })).toMatchSnapshot();
	});
});
