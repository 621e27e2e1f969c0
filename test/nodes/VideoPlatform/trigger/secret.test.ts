import { normalizeSecret, secretCredentialProblem, secretMatches } from '../../../../nodes/VideoPlatform/trigger/secret';
import { MAX_HEADER_SECRET_LENGTH } from '../../../../nodes/VideoPlatform/shared/credentials';

describe('secretMatches', () => {
	it('refuses the shared secret sent in another letter case', () => {
		expect(secretMatches('S3cret-Value', 's3cret-value')).toBe(false);
		expect(secretMatches('s3cret-value', 'S3CRET-VALUE')).toBe(false);
		expect(secretMatches('s3cret-value', 's3cret-value')).toBe(true);
	});

	it('lets nothing in while no secret is saved, not even an empty header or one of spaces', () => {
		expect(secretMatches('', '')).toBe(false);
		expect(secretMatches('   ', '  ')).toBe(false);
		expect(secretMatches('', undefined)).toBe(false);
	});

	// Node hands a header over as a list only for Set-Cookie (others repeated are joined or dropped);
	// whatever n8n hands over, a secret header that is not text lets nothing in.
	it('refuses a secret header that came as a list or any other value than text, even one holding the secret', () => {
		for (const provided of [['s3cret'], ['s3cret', 's3cret'], { value: 's3cret' }, 0, null, undefined]) {
			expect(secretMatches(provided, 's3cret')).toBe(false);
		}
	});

	it('ignores spaces around either side', () => {
		expect(secretMatches('  s3cret ', 's3cret')).toBe(true);
		expect(secretMatches('s3cret', ' s3cret  ')).toBe(true);
	});
});

describe('normalizeSecret', () => {
	it('reads anything but text as no secret', () => {
		expect(normalizeSecret(undefined)).toBe('');
		expect(normalizeSecret(['s3cret'])).toBe('');
	});
});

describe('secretCredentialProblem', () => {
	it('asks for a header name when none is saved', () => {
		expect(secretCredentialProblem(undefined, 's3cret')).toBe('Enter a header name.');
		expect(secretCredentialProblem(null, 's3cret')).toBe('Enter a header name.');
	});

	it('asks for a secret when none is saved', () => {
		expect(secretCredentialProblem('X-Secret', undefined)).toMatch(/^Enter a secret\./);
	});

	it(`takes a secret of exactly ${MAX_HEADER_SECRET_LENGTH} characters and refuses one more`, () => {
		expect(secretCredentialProblem('X-Secret', 'w'.repeat(MAX_HEADER_SECRET_LENGTH))).toBeUndefined();
		expect(secretCredentialProblem('X-Secret', 'w'.repeat(MAX_HEADER_SECRET_LENGTH + 1))).toMatch(/^The secret is longer than 16,384 characters/);
	});
});
