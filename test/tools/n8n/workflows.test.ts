import { whyRunFailed } from '../../../tools/n8n/workflows';

describe('whyRunFailed', () => {
	it("shows n8n's error for the run and for each node that failed, then the end of the output", () => {
		const run = {
			data: {
				resultData: {
					error: { message: 'The connection was refused', description: 'ECONNREFUSED 127.0.0.1:4000' },
					runData: {
						'Manual Trigger': [{ data: {} }],
						'HTTP Request': [{ error: { message: 'The connection was refused' } }],
					},
				},
			},
		};
		const text = whyRunFailed({ run, stdout: 'a\nb\n', stderr: 'Error: boom\n' });
		expect(text.split('\n')).toEqual([
			'run error: The connection was refused | ECONNREFUSED 127.0.0.1:4000',
			'node "HTTP Request": The connection was refused',
			'--- stdout (end) ---',
			'a',
			'b',
			'--- stderr (end) ---',
			'Error: boom',
		]);
	});

	it('says how the command ended, so that a run killed at the time limit or by a signal explains itself', () => {
		const text = whyRunFailed({ ended: 'was killed after 300 s, the time limit the tools give a CLI command', stdout: '', stderr: '' });
		expect(text).toContain('n8n execute was killed after 300 s');
	});

	it('says when n8n printed no run data', () => {
		expect(whyRunFailed({ stdout: '', stderr: 'Workflow not found' })).toContain('run error: none stored\nno run data was printed');
	});
});
