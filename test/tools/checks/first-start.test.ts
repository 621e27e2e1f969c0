import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { earlyVersions, laterVersions, recordedStart, recordFiles, writeRecord } from '../../../tools/checks/first-start';
import { defaultVersion, installableVersions, versionSpec } from '../../../tools/install/versions';
import { watchForNothing } from '../../helpers/waits';

const run = { code: 0, output: 'n8n is ready\n…ünïcødé ✓\n', seconds: 301 };

describe('the first npm start that npm test runs in the background', () => {
	let dir: string;
	let record: string;
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vp-first-start-'));
		record = path.join(dir, 'first-npm-start-42.json');
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	it('keeps its output and its n8n data beside its record, named after the same run', () => {
		expect(recordFiles(record)).toEqual({ record, log: path.join(dir, 'first-npm-start-42.log'), dataDir: path.join(dir, 'first-npm-start-42-data') });
	});

	it('is read as soon as it is recorded, not before', async () => {
		let settled = false;
		const reading = recordedStart(record, 60_000).finally(() => (settled = true));
		await watchForNothing(); // only time shows that it does not settle before the record exists
		expect(settled).toBe(false);
		const started = Date.now();
		writeRecord(record, run);
		expect(await reading).toEqual(run);
		// The file system's event, not a poll of seconds.
		expect(Date.now() - started).toBeLessThan(1_000);
	});

	it('is read at once when it was recorded before the test looked', async () => {
		writeRecord(record, run);
		expect(await recordedStart(record, 1_000)).toEqual(run);
		expect(fs.readdirSync(dir)).toEqual(['first-npm-start-42.json']);
	});

	it('fails after the timeout with where its output is when it never ends', async () => {
		await expect(recordedStart(record, 300)).rejects.toThrow(
			`The first npm start that npm test runs in the background had not finished after 0 minutes (no ${record}); its output so far: ${path.join(dir, 'first-npm-start-42.log')}`,
		);
	});

	it('runs beside the fully tested versions of this Node, and is followed by every other version but its own', () => {
		const early = earlyVersions();
		const later = laterVersions();
		expect(versionSpec(defaultVersion()).node).toBe(24);
		expect(early.length).toBeGreaterThan(0);
		expect(early.every((version) => versionSpec(version).node === 20 && versionSpec(version).role === 'full')).toBe(true);
		expect(later.every((version) => versionSpec(version).role === 'smoke')).toBe(true);
		expect([...early, ...later, defaultVersion()].sort()).toEqual([...installableVersions()].sort());
	});
});
