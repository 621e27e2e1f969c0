import type { IExecuteFunctions } from 'n8n-workflow';

/** A note in the editor's output pane. Older n8n 1.x has no execution hints: then nothing is said. */
export function hintInOutputPane(context: IExecuteFunctions, message: string): void {
	if (typeof context.addExecutionHints !== 'function') return;
	context.addExecutionHints({ type: 'info', location: 'outputPane', message });
}
