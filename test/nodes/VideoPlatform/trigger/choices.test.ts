import type { INodeProperties } from 'n8n-workflow';

import { OPTION_NAMES } from '../../../../nodes/VideoPlatform/trigger/choices';
import { VideoPlatformTrigger } from '../../../../nodes/VideoPlatform/VideoPlatformTrigger.node';

const { properties } = new VideoPlatformTrigger().description;
const field = (name: string) => properties.find((p) => p.name === name) as INodeProperties;
const option = (name: string) => (field('options').options as INodeProperties[]).find((o) => o.name === name) as INodeProperties;

describe("the trigger's option names", () => {
	it("name the options as refusals and other fields' descriptions do", () => {
		expect(Object.entries(OPTION_NAMES).map(([name]) => option(name).displayName)).toEqual(Object.values(OPTION_NAMES));
		expect(Object.values(OPTION_NAMES)).toEqual(['Delivery ID Field', 'Only When Field', 'Has One Of These Values']);
		expect(field('event').description).toContain('Add Option → Only When Field and Has One Of These Values');
	});
});
