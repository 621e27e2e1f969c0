import { Readable } from 'node:stream';

import { readBounded } from '../../../tools/bench/compliant-limit/CompliantLimit.node';

describe("the bench's bounded reader", () => {
	it('parses a whole answer', async () => {
		await expect(readBounded(Readable.from([Buffer.from('{"id":'), Buffer.from('"r1"}')]))).resolves.toEqual({ id: 'r1' });
	});

	it('rejects an answer that is not JSON, rather than throw from the stream', async () => {
		await expect(readBounded(Readable.from([Buffer.from('')]))).rejects.toThrow(SyntaxError);
	});

	it('rejects a stream destroyed before its end', async () => {
		const body = new Readable({ read() {} });
		const read = readBounded(body);
		body.push(Buffer.from('{"id":'));
		body.destroy();
		await expect(read).rejects.toThrow('cut off');
	});

	it('stops reading past 10 MiB', async () => {
		const body = new Readable({ read() {} });
		const read = readBounded(body);
		body.push(Buffer.alloc(10 * 1024 * 1024 + 1, 32));
		await expect(read).rejects.toThrow('larger than');
		expect(body.destroyed).toBe(true);
	});
});
