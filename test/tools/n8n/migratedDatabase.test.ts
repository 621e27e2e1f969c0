import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { scratchRoot } from '../../../tools/common/paths';
import { hasDatabase, startFromMigratedDatabase } from '../../../tools/n8n/migratedDatabase';

// Version names no real install uses, so that the kept copies are this test's own.
const version = `0.0.0-test-${process.pid}`;
const otherVersion = `0.0.1-test-${process.pid}`;
const keptOf = (v: string) => path.join(scratchRoot, `migrated-database-${v}`);
const kept = keptOf(version);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vp-migrated-'));
afterAll(() => {
	fs.rmSync(root, { recursive: true, force: true });
	for (const v of [version, otherVersion]) fs.rmSync(keptOf(v), { recursive: true, force: true });
});

/** A prepared process of a new user folder whose CLI "migrates" by writing SQLite's files. */
function processIn(name: string, ofVersion = version) {
	const userFolder = path.join(root, name);
	fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
	const cli = jest.fn(async (args: string[]) => {
		expect(JSON.parse(fs.readFileSync(args[1].replace('--input=', ''), 'utf8'))).toEqual([]);
		fs.writeFileSync(path.join(userFolder, '.n8n', 'database.sqlite'), `tables of ${name}`);
		fs.writeFileSync(path.join(userFolder, '.n8n', 'database.sqlite-wal'), `log of ${name}`);
		return { status: 0, stdout: '', stderr: '' };
	});
	const writeJson = (file: string, data: unknown) => {
		fs.writeFileSync(path.join(userFolder, file), JSON.stringify(data));
		return path.join(userFolder, file);
	};
	const n8nProcess = { userFolder, owner: { version: ofVersion }, cli, writeJson };
	const database = (file = 'database.sqlite') => fs.readFileSync(path.join(userFolder, '.n8n', file), 'utf8');
	return { n8nProcess: n8nProcess as unknown as Parameters<typeof startFromMigratedDatabase>[0], cli, database, userFolder };
}

describe('startFromMigratedDatabase', () => {
	it('lets the first new folder migrate its own database and keeps a copy; the next folders copy it, write-ahead log included', async () => {
		const first = processIn('first');
		await startFromMigratedDatabase(first.n8nProcess);
		expect(first.cli).toHaveBeenCalledTimes(1);
		expect(first.cli.mock.calls[0][0][0]).toBe('import:credentials');
		expect(fs.existsSync(path.join(first.userFolder, 'migrate.import.json'))).toBe(false);
		expect(fs.readFileSync(path.join(kept, 'database.sqlite'), 'utf8')).toBe('tables of first');

		const second = processIn('second');
		await startFromMigratedDatabase(second.n8nProcess);
		expect(second.cli).not.toHaveBeenCalled();
		expect(second.database()).toBe('tables of first');
		expect(second.database('database.sqlite-wal')).toBe('log of first');
		expect(fs.readdirSync(path.dirname(kept)).filter((name) => name.startsWith(`migrated-database-${version}.`))).toEqual([]);
	});

	it("keeps one per version: another version's folder migrates its own", async () => {
		await startFromMigratedDatabase(processIn('first of this version').n8nProcess);
		const other = processIn('first of another version', otherVersion);
		await startFromMigratedDatabase(other.n8nProcess);
		expect(other.cli).toHaveBeenCalledTimes(1);
		expect(fs.readFileSync(path.join(keptOf(otherVersion), 'database.sqlite'), 'utf8')).toBe('tables of first of another version');
		expect(fs.readFileSync(path.join(kept, 'database.sqlite'), 'utf8')).not.toContain('another version');
	});

	it('keeps the copy a run beside it kept first, and throws its own away', async () => {
		const late = processIn('late', `0.0.2-test-${process.pid}`);
		const keptLate = keptOf(`0.0.2-test-${process.pid}`);
		// The other run renames its copy in while this one migrates.
		late.cli.mockImplementationOnce(async () => {
			fs.writeFileSync(path.join(late.userFolder, '.n8n', 'database.sqlite'), 'tables of late');
			fs.mkdirSync(keptLate, { recursive: true });
			fs.writeFileSync(path.join(keptLate, 'database.sqlite'), 'tables of the other run');
			return { status: 0, stdout: '', stderr: '' };
		});
		try {
			await startFromMigratedDatabase(late.n8nProcess);
			expect(late.database()).toBe('tables of late');
			expect(fs.readFileSync(path.join(keptLate, 'database.sqlite'), 'utf8')).toBe('tables of the other run');
			expect(fs.existsSync(`${keptLate}.${process.pid}`)).toBe(false);
		} finally {
			fs.rmSync(keptLate, { recursive: true, force: true });
		}
	});

	it('leaves a folder that has a database as it is', async () => {
		const used = processIn('used');
		expect(hasDatabase(used.userFolder)).toBe(false);
		fs.writeFileSync(path.join(used.userFolder, '.n8n', 'database.sqlite'), "the user's workflows");
		expect(hasDatabase(used.userFolder)).toBe(true);
		await startFromMigratedDatabase(used.n8nProcess);
		expect(used.cli).not.toHaveBeenCalled();
		expect(used.database()).toBe("the user's workflows");
	});
});
