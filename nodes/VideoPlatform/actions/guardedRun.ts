import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** How the items a guard let through ended, by index, so that it records what it must. */
export interface SentItems {
	created: number[];
	/** Not sent, or definitely refused (an item the platform may have acted on is in neither list). */
	notCreated: number[];
}

/**
 * A guard's decision. `answered`: the whole output, nothing to send. `send`: the items it answered
 * itself (skipped, or failed under Continue On Fail) are not sent; the router sends the others and
 * then calls `finish`; `advice` replaces what a part-way report tells the user to do next.
 */
export type GuardedRun =
	| { kind: 'answered'; output: INodeExecutionData[] }
	| {
			kind: 'send';
			answered: Map<number, IDataObject>;
			finish(sent: SentItems): Promise<void>;
			advice: { runAgain: string; mayExist: string };
	  };
