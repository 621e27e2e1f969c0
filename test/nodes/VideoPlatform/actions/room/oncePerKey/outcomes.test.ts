import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';

import {
	ADVICE,
	createdBefore,
	forgotten,
	forgottenAll,
	mayExistError,
	repeatOf,
	storeFailed,
	tooManyKeys,
} from '../../../../../../nodes/VideoPlatform/actions/room/oncePerKey/outcomes';
import { testNode } from '../../../../../helpers/executeContext';
import { ANGLE_BRACKETS, outsideTextWithMarkup } from '../../../../../helpers/outsideText';
import { anyText } from '../../../../../helpers/unicode';

const PLATFORM = 'https://video.example.com';
const FORGET = /set Options → Create Once Per Key → Mode to Forget These Items' Keys, put "Math 2" \(without the quotes\) in Keys to Forget, run this node, then set Mode back/;

describe("Create Once Per Key's skipped items", () => {
	it('carry their key as it is, say why they were skipped, and how to have the room created again', () => {
		fc.assert(
			fc.property(anyText({ minLength: 1 }), (key) => {
				expect(createdBefore(key, PLATFORM)).toMatchObject({ skipped: true, reason: 'created-before', key });
				expect(repeatOf(key, 4)).toMatchObject({ skipped: true, reason: 'same-key-in-this-run', key, repeatsItem: 4 });
			}),
		);
		expect(createdBefore('Math 2', PLATFORM).message).toMatch(/^Not sent: a room for this key was created on https:\/\/video\.example\.com by an earlier run/);
		expect(createdBefore('Math 2', PLATFORM).message).toMatch(FORGET);
		expect(repeatOf('Math 2', 4).message).toBe("Not sent: item 4 of this run has the same key, and one room is created per key. Item 4's output says whether its room was created.");
	});
});

describe('the advice to forget a key', () => {
	const pasted = (message: string) => /put "([\s\S]*)" \(without the quotes\) in Keys to Forget/.exec(message)?.[1];
	// As Keys to Forget reads its field: one trimmed key per line.
	const readBack = (text: string) => text.split(/\r?\n/).map((line) => line.trim());

	it('names a key to paste only when what the message shows reads back as the key itself, else says to run the mode on that item alone', () => {
		fc.assert(
			fc.property(anyText({ minLength: 1 }), (key) => {
				for (const message of [String(createdBefore(key, PLATFORM).message), mayExistError(testNode, 0, key, PLATFORM, [], false).description ?? '']) {
					const shownKey = pasted(message);
					if (shownKey === undefined) expect(message).toContain('leave Keys to Forget empty and run this node with only this item as its input');
					else expect(readBack(shownKey)).toEqual([key]);
				}
			}),
		);
	});

	it('says to run the mode on that item alone for a key with markup, spaces around it, a line break or more than 300 characters', () => {
		for (const key of ['Math <b>2</b>', ' Math 2', 'Math\n2', 'x'.repeat(301)]) {
			const message = String(createdBefore(key, PLATFORM).message);
			expect(pasted(message)).toBeUndefined();
			expect(message).toContain("Mode to Forget These Items' Keys, leave Keys to Forget empty and run this node with only this item as its input");
		}
	});
});

describe('a key whose room may exist', () => {
	it("fails its item, naming the key, what to check on the platform, and how to forget it", () => {
		const error = mayExistError(testNode, 2, 'Math 2', PLATFORM, [], false);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.context.itemIndex).toBe(2);
		expect(error.message).toBe('The room for key "Math 2" may already exist: an earlier run sent its request and never learned whether the platform created it [item 2]');
		expect(error.description).toMatch(/^Nothing was sent for this item in this run\. /);
		expect(error.description).toContain(`Look on the platform (${PLATFORM}) for that room`);
		expect(error.description).toMatch(FORGET);
		expect(error.description).toMatch(/its key stays marked as "may exist"\.$/);
	});

	it('says that nothing was sent for any item when it stops the run, and names the other items alike', () => {
		const error = mayExistError(testNode, 0, 'k', PLATFORM, [3, 5], true);
		expect(error.description).toMatch(/^Nothing was sent for any item of this run\. /);
		expect(error.description).toMatch(/ Items 3, 5 of this run are in the same state\.$/);
	});
});

describe('what the editor shows of a key or of n8n’s message', () => {
	it('is free of markup, whatever the key or message holds', () => {
		fc.assert(
			fc.property(outsideTextWithMarkup, (text) => {
				const error = mayExistError(testNode, 0, text, PLATFORM, [], true);
				const failed = storeFailed(testNode, text, true);
				const shown = [createdBefore(text, PLATFORM).message, error.message, error.description, failed.message, failed.description];
				expect(shown.filter((words) => ANGLE_BRACKETS.test(String(words)))).toEqual([]);
			}),
			{ numRuns: 100 },
		);
	});
});

describe("the run's own failures", () => {
	it('refuses more keys than it keeps, saying what to raise, and that nothing was sent', () => {
		const error = tooManyKeys(testNode, 101, 100);
		expect(error.message).toBe('This run has 101 keys, and Create Once Per Key keeps only 100');
		expect(error.description).toMatch(/Raise Options → Create Once Per Key → Keys Remembered to at least 101, or send fewer items per run\. Nothing was sent\.$/);
	});

	it("quotes n8n's database failure, says whether anything was sent, and points to the scope for another node's list", () => {
		expect(storeFailed(testNode, 'SQLITE_BUSY', true)).toMatchObject({
			message: 'n8n could not read or change the keys Create Once Per Key remembers: SQLITE_BUSY',
			description: "Nothing was sent. Run the workflow again; if it fails again, check n8n's database connection.",
		});
		expect(storeFailed(testNode, 'SQLITE_BUSY', false).description).toBe("Run the workflow again; if it fails again, check n8n's database connection.");
		expect(storeFailed(testNode, 'saved with an incompatible setting', true).description).toMatch(/Set Remember Keys For to This Node\.$/);
	});
});

describe('forgetting', () => {
	it('says which key, or whose keys, are forgotten, and that Create Once Per Key creates their rooms next', () => {
		expect(forgotten('Math 2', PLATFORM)).toEqual({
			forgotten: true,
			key: 'Math 2',
			message: `This node no longer remembers this key for ${PLATFORM}: the next run with Mode Create Once Per Key creates its room.`,
		});
		expect(forgottenAll('node')).toMatchObject({ forgotten: true, keys: 'all', message: expect.stringMatching(/^Every key this node remembered is forgotten/) });
		expect(forgottenAll('workflow').message).toMatch(/^Every key this workflow remembered is forgotten/);
	});
});

describe("a part-way report's advice with the option on", () => {
	it('says the created rooms are skipped on the next run, and the ones that may exist are not sent again', () => {
		expect(ADVICE.runAgain).toMatch(/rooms already created are skipped/);
		expect(ADVICE.mayExist).toMatch(/^Create Once Per Key does not send them again/);
	});
});
