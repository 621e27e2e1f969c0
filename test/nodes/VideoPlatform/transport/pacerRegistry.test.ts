import type { IExecuteFunctions } from 'n8n-workflow';

import { PlatformClient } from '../../../../nodes/VideoPlatform/transport';
import { PacerRegistry } from '../../../../nodes/VideoPlatform/transport/pacer';
import { createExecuteContext } from '../../../helpers/executeContext';
import { createRoom } from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { fakeClock, SANDBOX_KEY, startSandbox } from '../../../helpers/sandbox';

describe('PacerRegistry', () => {
	it('gives runs with the same credential, Base URL and key one pacer, and others their own', () => {
		const pacers = new PacerRegistry(fakeClock(0));
		const shared = pacers.pacerFor('cred-1', 'https://video.example.com', 'key-1');
		expect(pacers.pacerFor('cred-1', 'https://video.example.com', 'key-1')).toBe(shared);
		expect(pacers.pacerFor('cred-2', 'https://video.example.com', 'key-1')).not.toBe(shared);
		expect(pacers.pacerFor('cred-1', 'https://other.example.com', 'key-1')).not.toBe(shared);
		// A new key saved in the same credential may have a limit of its own.
		expect(pacers.pacerFor('cred-1', 'https://video.example.com', 'key-2')).not.toBe(shared);
	});

	it('shares nothing for a run without a saved credential, and keeps nothing for it', () => {
		const pacers = new PacerRegistry(fakeClock(0));
		const oldest = pacers.pacerFor('cred-0', 'https://a', 'k');
		for (let i = 1; i < 64; i++) pacers.pacerFor(`cred-${i}`, 'https://a', 'k');
		expect(pacers.pacerFor(undefined, 'https://a', 'k')).not.toBe(pacers.pacerFor(undefined, 'https://a', 'k'));
		// Kept, a pacer for a run without a credential would have pushed out the least recently used.
		expect(pacers.pacerFor('cred-0', 'https://a', 'k')).toBe(oldest);
	});

	it('keeps at most 64 pacers, dropping the least recently used', () => {
		const pacers = new PacerRegistry(fakeClock(0));
		const made = new Map(Array.from({ length: 64 }, (_, i) => [`cred-${i}`, pacers.pacerFor(`cred-${i}`, 'https://a', 'k')]));
		const second = made.get('cred-1');
		pacers.pacerFor('cred-0', 'https://a', 'k');
		made.set('cred-64', pacers.pacerFor('cred-64', 'https://a', 'k'));
		made.delete('cred-1');

		// The 64 others are all kept: asking for one that is kept adds none, so none is dropped meanwhile.
		for (const [id, pacer] of made) expect(pacers.pacerFor(id, 'https://a', 'k')).toBe(pacer);
		expect(pacers.pacerFor('cred-1', 'https://a', 'k')).not.toBe(second);
	});
});

describe('Runs sharing a credential in one process', () => {
	let sandbox: Sandbox;
	afterEach(async () => await sandbox?.stop());

	function runWithSavedCredential(baseUrl: string): IExecuteFunctions {
		const context = createExecuteContext({ credentials: { baseUrl, apiKey: SANDBOX_KEY } });
		const node = context.getNode();
		const withCredential = { ...node, credentials: { videoPlatformApi: { id: 'cred-1', name: 'Platform' } } };
		return Object.assign(Object.create(context) as IExecuteFunctions, { getNode: () => withCredential });
	}

	it('pace each other: a rate learned from one run\'s 429 spaces the other run\'s requests', async () => {
		const clock = fakeClock();
		sandbox = await startSandbox({ rateLimit: 10, now: clock.now });
		const pacers = new PacerRegistry(clock);
		const first = new PlatformClient(runWithSavedCredential(sandbox.url), 'room', { clock, pacers });
		const second = new PlatformClient(runWithSavedCredential(sandbox.url), 'room', { clock, pacers });
		const statuses = () => sandbox.state.requests.map((r: { status: number }) => r.status);

		// The first run fills the limit, gets a 429 and learns 9.5 requests a second.
		await Promise.all(Array.from({ length: 10 }, async (_, i) => await first.request(createRoom, i)));
		await first.request(createRoom, 10);
		expect(statuses().slice(10)).toEqual([429, 201]);

		// Ten at once from the second run: spaced at the learned rate, so the platform takes them all.
		// With a pacer of its own, the second run would send them together and get a 429.
		await Promise.all(Array.from({ length: 10 }, async (_, i) => await second.request(createRoom, i)));
		expect(statuses().slice(12)).toEqual(Array(10).fill(201));
		expect(second.rateLimits.refused).toBe(0);
	});
});
