import { normalizeApiKey } from '../../../../nodes/VideoPlatform/shared/apiKey';
import { normalizeBaseUrl } from '../../../../nodes/VideoPlatform/shared/baseUrl';

describe('normalizeBaseUrl', () => {
	it.each([
		['https://video.example.com', 'https://video.example.com'],
		['https://video.example.com/', 'https://video.example.com'],
		['https://video.example.com///', 'https://video.example.com'],
		['https://video.example.com/v1', 'https://video.example.com'],
		['https://video.example.com/v1/', 'https://video.example.com'],
		['  https://video.example.com/V1/  ', 'https://video.example.com'],
		['https://video.example.com/api/v1/', 'https://video.example.com/api'],
		['https://video.example.com/v10', 'https://video.example.com/v10'],
		[undefined, ''],
	])('%p becomes %p', (raw, expected) => {
		expect(normalizeBaseUrl(raw)).toBe(expected);
	});
});

describe('normalizeApiKey', () => {
	it.each([
		['abc123', 'abc123'],
		['  abc123  ', 'abc123'],
		['Bearer abc123', 'abc123'],
		['bearer    abc123 ', 'abc123'],
		['BEARER abc123', 'abc123'],
		['Bearerabc123', 'Bearerabc123'],
		['Bearer ', ''],
		[' bearer', ''],
	])('%p becomes %p', (raw, expected) => {
		expect(normalizeApiKey(raw)).toBe(expected);
	});
});
