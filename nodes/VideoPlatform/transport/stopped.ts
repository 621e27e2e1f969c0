import type { INode, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FailedRequest } from './errors';
import { apiError } from './errors';
import type { StopReason } from './runStop';
import { mayHaveBeenProcessed } from './unanswered';

const WHY: Record<StopReason, string> = {
	'execution-stopped': 'The execution was stopped',
	'run-failed': 'The run stopped at an earlier failure',
};

/** Errors that say nothing reached the platform for their item, so a run's report can look past them. */
const neverSent = new WeakSet<Error>();

export function wasNeverSent(error: Error): boolean {
	return neverSent.has(error);
}

/**
 * A stop that came before the request went out, or while it waited to go out again after a 429
 * (which means the platform did not take it): nothing was created for this item.
 */
function notSentWords(reason: StopReason, refusedBefore: boolean, creates?: string) {
	const what = creates ? `no ${creates} was created for it` : 'the platform did not process it';
	return refusedBefore
		? {
				message: `${WHY[reason]} while this item waited to be sent again after HTTP 429`,
				description: `The platform had refused it with HTTP 429 and it was not sent again, so ${what}.`,
			}
		: { message: `${WHY[reason]} before this item was sent`, description: `Nothing was sent for this item, so ${what}.` };
}

export function stoppedBeforeSending(failed: FailedRequest, reason: StopReason, refusedBefore: boolean): NodeApiError {
	// A safe request sent before and about to go again: it was sent, and it changed nothing.
	if (failed.safe && failed.tries > 0 && !refusedBefore) {
		return apiError(failed, null, `${WHY[reason]} before this item was sent again`, mayHaveBeenProcessed(failed));
	}
	const { message, description } = notSentWords(reason, refusedBefore, failed.creates);
	const error = apiError(failed, null, message, description);
	neverSent.add(error);
	return error;
}

/** For an item whose turn never came because the run stopped. */
export function neverStarted(node: INode, itemIndex: number, reason: StopReason, creates?: string): NodeOperationError {
	const { message, description } = notSentWords(reason, false, creates);
	const error = new NodeOperationError(node, `${message} [item ${itemIndex}]`, { itemIndex, description });
	neverSent.add(error);
	return error;
}

/** The user stopped the execution while the request was out: the platform may have acted on it. */
export function stoppedWhileAnswering(failed: FailedRequest): NodeApiError {
	return apiError(
		failed,
		null,
		'The execution was stopped while this item\'s request was waiting for its answer',
		mayHaveBeenProcessed(failed),
	);
}
