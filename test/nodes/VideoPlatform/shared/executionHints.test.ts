import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import fc from 'fast-check';

import { hintInOutputPane } from '../../../../nodes/VideoPlatform/shared/executionHints';
import { anyText } from '../../../helpers/unicode';

describe('hintInOutputPane', () => {
	it('adds the message as one note in the output pane, word for word', () => {
		fc.assert(
			fc.property(anyText(), (message) => {
				const added: NodeExecutionHint[] = [];
				hintInOutputPane({ addExecutionHints: (...hints: NodeExecutionHint[]) => added.push(...hints) } as unknown as IExecuteFunctions, message);
				expect(added).toEqual([{ type: 'info', location: 'outputPane', message }]);
			}),
		);
	});

	it('says nothing, and does not fail, in an n8n without execution hints (older 1.x)', () => {
		expect(() => hintInOutputPane({} as IExecuteFunctions, 'x')).not.toThrow();
		expect(() => hintInOutputPane({ addExecutionHints: undefined } as unknown as IExecuteFunctions, 'x')).not.toThrow();
	});
});
