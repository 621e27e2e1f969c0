import { VideoPlatformTrigger } from '../../../../nodes/VideoPlatform/VideoPlatformTrigger.node';
import { shownHints } from '../../../helpers/nodeHints';

const trigger = new VideoPlatformTrigger();
const NO_SECRET = expect.stringMatching(/^Authentication is None: anyone who knows/);

describe('Video Platform Trigger: the hint about a trigger without a secret', () => {
	it.each([
		['Authentication is None', { authentication: 'none', event: '*' }],
		['Authentication is left at its default in a saved workflow', { event: '*' }],
	])('is shown when %s', (_case, parameters) => {
		expect(shownHints(trigger, parameters)).toEqual([NO_SECRET]);
	});

	it('is not shown with Shared Secret Header', () => {
		expect(shownHints(trigger, { authentication: 'secretHeader', event: '*' })).toEqual([]);
	});
});

describe("the trigger's panel and messages", () => {
	const { triggerPanel, activationMessage, eventTriggerDescription } = trigger.description;
	const panel = triggerPanel as { executionsHelp: { inactive: string }; activationHint: { inactive: string } };

	it('say how to start it with both words n8n uses: Publish (2.x) and Activate (1.x)', () => {
		for (const text of [panel.executionsHelp.inactive, panel.activationHint.inactive]) {
			expect(text).toMatch(/publish the workflow \(n8n 1\.x: activate it\)/);
		}
	});

	it("tell where the Production URL goes without naming a place the spec does not", () => {
		for (const text of [panel.executionsHelp.inactive, panel.activationHint.inactive, activationMessage]) {
			expect(text).toContain("your video platform's webhook or integration settings");
		}
		expect(eventTriggerDescription).toMatch(/Test URL/);
	});
});
