import { VideoPlatform } from '../../../nodes/VideoPlatform/VideoPlatform.node';

const { description } = new VideoPlatform();
const property = (name: string) => description.properties.find((p) => p.name === name);

describe('Video Platform node description', () => {
	it('keeps the public names that saved workflows depend on', () => {
		expect(description.name).toBe('videoPlatform');
		expect(description.properties.map((p) => p.name)).toEqual(['resource', 'operation', 'name', 'type', 'options']);
		expect(property('resource')?.options).toEqual([{ name: 'Room', value: 'room' }]);
		expect(property('operation')?.options).toEqual([
			{ name: 'Create', value: 'create', description: 'Create a room', action: 'Create a room' },
		]);
		expect(property('type')?.options).toEqual([{ name: 'Conference', value: 'conference' }]);
	});

	it('follows n8n conventions', () => {
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toBe('={{$parameter["operation"] + ": " + $parameter["resource"]}}');
		expect(description.icon).toEqual({ light: 'file:videoPlatform.svg', dark: 'file:videoPlatform.dark.svg' });
		expect(description.credentials).toEqual([{ name: 'videoPlatformApi', required: true }]);
		expect(property('resource')?.noDataExpression).toBe(true);
		expect(property('operation')?.noDataExpression).toBe(true);
	});

	it('shows the fields only for Room → Create', () => {
		for (const name of ['name', 'type']) {
			expect(property(name)?.displayOptions).toEqual({ show: { resource: ['room'], operation: ['create'] } });
		}
	});
});
