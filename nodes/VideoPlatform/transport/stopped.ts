import type { NodeApiError } from 'n8n-workflow';

import type { FailedRequest } from './errors';
import { apiError } from './errors';
import type { StopReason } from './runStop';
import { mayHaveBeenProcessed } from './unanswered';

const WHY: Record<StopReason, string> = {
	'execution-stopped': 'The execution was stopped',
	'run-failed': 'The run stopped at an earlier failure',
};

/**
 * A stop that came before the request went out, or while it waited to go out again after a
 * 429 (which means the platform did not take it): nothing was created for this item.
 */
export function stoppedBeforeSending(failed: FailedRequest, reason: StopReason, refusedBefore: boolean): NodeApiError {
	const what = failed.creates ? `no ${failed.creates} was created for it` : 'the platform did not process it';
	return apiError(
		failed,
		null,
		refusedBefore
			? `${WHY[reason]} while this item waited to be sent again after HTTP 429`
			: `${WHY[reason]} before this item was sent`,
		refusedBefore
			? `The platform had refused it with HTTP 429 and it was not sent again, so ${what}.`
			: `Nothing was sent for this item, so ${what}.`,
	);
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
