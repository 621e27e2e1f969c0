import fs from 'node:fs';
import path from 'node:path';

const benchDir = path.resolve(__dirname, '..', '..', '..', 'tools', 'bench');
const scripts = JSON.parse(fs.readFileSync(path.resolve(benchDir, '..', '..', 'package.json'), 'utf8')).scripts as Record<string, string>;

describe("memory.js, the lab's memory measure", () => {
	it('is run by npm run bench:memory alone, so that one implementation gives the figures and their targets', () => {
		const runners = fs.readdirSync(benchDir).filter((file) => file.endsWith('.js') && /['"/]memory\.js['"]/.test(fs.readFileSync(path.join(benchDir, file), 'utf8')));
		expect(runners).toEqual(['memory-scale.js']);
		expect(scripts['bench:memory']).toMatch(/node tools\/bench\/memory-scale\.js$/);
	});
});
