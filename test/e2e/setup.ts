import { whyRunFailed } from '../../tools/n8n/workflows';

// A real n8n takes seconds per command; its tests get minutes, not jest's 5 s default.
jest.setTimeout(180_000);

type ExecuteResult = { ok: boolean; run?: unknown; ended?: string; stdout: string; stderr: string };

declare global {
	namespace jest {
		interface Matchers<R> {
			/** The run (`n8n execute`, or N8n.run on the started n8n) succeeded; else the failure shows n8n's own error for the run and its nodes. */
			toHaveRunOk(): R;
		}
	}
}

expect.extend({
	toHaveRunOk(result: ExecuteResult) {
		return {
			pass: result.ok,
			message: () => (result.ok ? 'expected the run to fail, but it succeeded' : `expected the run to succeed, but it failed:\n${whyRunFailed(result)}`),
		};
	},
});
