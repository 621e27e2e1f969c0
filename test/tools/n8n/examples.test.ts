import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadExamples } from '../../../tools/n8n/examples';
import { SANDBOX_KEY, startSandbox } from '../../helpers/sandbox';

interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Example {
	file: string;
	workflow: { nodes: ExampleNode[]; connections: Record<string, { main: Array<Array<{ node: string }>> }> };
}

const examples = loadExamples() as Example[];
const note = ({ workflow }: Example) => String(workflow.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote')?.parameters.content);
const byFile = (start: string) => examples.find(({ file }) => file.startsWith(start))!;
const nodeOf = (example: Example, name: string) => example.workflow.nodes.find((node) => node.name === name)!;
// Nodes whose credential a user picks after import: the package's own, n8n's chat and calendar ones.
const CHAT_AND_CALENDAR = ['n8n-nodes-base.slack', 'n8n-nodes-base.microsoftTeams', 'n8n-nodes-base.googleCalendarTrigger'];
const needsCredential = (node: ExampleNode) => node.credentials !== undefined || CHAT_AND_CALENDAR.includes(node.type);
const LINK = '{{ $json.link }}';

describe('the example workflows, as a user imports them on their own n8n', () => {
	it.each(examples.map((example) => [example.file, example] as const))('%s: its note says which credential to pick after import', (_file, example) => {
		const text = note(example);
		expect(text).toContain('**After import**');
		for (const node of example.workflow.nodes.filter(needsCredential)) expect(text).toContain(`**${node.name}**`);
		if (example.workflow.nodes.some((node) => node.type.startsWith('n8n-nodes-videoplatform.videoPlatform') && node.credentials)) {
			expect(text).toContain('pick your **Video Platform API** credential');
		}
	});

	it.each(examples.map((example) => [example.file, example] as const))('%s: its note holds no developer instructions', (_file, example) => {
		expect(note(example)).not.toMatch(/npm |sandbox|127\.0\.0\.1|localhost/i);
	});

	it.each(examples.map((example) => [example.file, example] as const))('%s: no credential it names is the local sandbox', (_file, example) => {
		const names = example.workflow.nodes.flatMap((node) => Object.values(node.credentials ?? {}).map(({ name }) => name));
		for (const name of names) expect(name).not.toMatch(/sandbox|local/i);
	});

	it("leaves Slack's, Teams' and Google Calendar's credentials for the user to pick", () => {
		const chat = examples.flatMap(({ workflow }) => workflow.nodes.filter((node) => CHAT_AND_CALENDAR.includes(node.type)));
		expect(chat.map((node) => node.type)).toEqual(expect.arrayContaining(CHAT_AND_CALENDAR));
		for (const node of chat) expect(node.credentials).toBeUndefined();
	});

	it('02 posts each room in Slack and in Microsoft Teams, with the link mapped from Create class room, and names the time zone setting', () => {
		const example = byFile('02-');
		// Through Only new rooms, which keeps the classes a re-run skipped out of the messages.
		expect(example.workflow.connections['Create class room'].main[0].map(({ node }) => node)).toEqual(['Only new rooms']);
		expect(JSON.stringify(nodeOf(example, 'Only new rooms').parameters)).toContain('"leftValue":"={{ $json.skipped }}"');
		const next = example.workflow.connections['Only new rooms'].main[0].map(({ node }) => nodeOf(example, node));
		expect(next.map((node) => node.type).sort()).toEqual(['n8n-nodes-base.microsoftTeams', 'n8n-nodes-base.slack']);
		const slack = next.find((node) => node.type === 'n8n-nodes-base.slack')!;
		const teams = next.find((node) => node.type === 'n8n-nodes-base.microsoftTeams')!;
		expect(slack.parameters.text).toContain(LINK);
		expect(teams.parameters).toMatchObject({ resource: 'channelMessage', operation: 'create', contentType: 'text' });
		expect(teams.parameters.message).toContain(LINK);
		// The failed classes stay on the error output.
		expect(example.workflow.connections['Create class room'].main[1].map(({ node }) => node)).toEqual(['Rooms that failed']);
		expect(note(example)).toMatch(/workflow's time zone: \*\*⋯ → Settings → Timezone\*\*/);
		expect(note(example)).toContain('drag that field into each message in place of `{{ $json.link }}`');
	});

	it('02 creates each class\'s room once a day, with the key the README recipe names, and its note says so', () => {
		const example = byFile('02-');
		const { options } = nodeOf(example, 'Create class room').parameters as { options?: { createOncePerKey?: { settings?: { key?: string } } } };
		const key = options?.createOncePerKey?.settings?.key;
		expect(key).toBe('={{ $json.name }}-{{ $today.toISODate() }}');
		expect(readFileSync(join(__dirname, '../../../README.md'), 'utf8')).toContain(`\`${key!.slice(1)}\``);
		expect(note(example)).toContain('**Run it twice in a morning**: no second room');
	});

	it('03 maps the link from Create meeting room, with no regular expression, and says what to do when there is none', () => {
		const example = byFile('03-');
		const [post] = example.workflow.connections['Create meeting room'].main[0].map(({ node }) => nodeOf(example, node));
		expect(post.type).toBe('n8n-nodes-base.slack');
		expect(post.parameters.text).toContain('{{ $json.link ||');
		expect(JSON.stringify(example.workflow)).not.toMatch(/\.match\(|RegExp|\.replace\(/);
		expect(note(example)).toContain('If the output has no link at all, the message says to open the platform');
	});

	it('the link the examples map is the field the local sandbox answers with', async () => {
		const sandbox = await startSandbox();
		try {
			const answer = await fetch(`${sandbox.url}/v1/rooms`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${SANDBOX_KEY}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({ name: 'Biology 7A', type: 'conference' }),
			});
			const field = /\$json\.(\w+)/.exec(LINK)![1];
			expect(((await answer.json()) as Record<string, unknown>)[field]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
		} finally {
			await sandbox.stop();
		}
	});
});
