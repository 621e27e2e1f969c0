import fc from 'fast-check';

import { isHeaderSafeText } from '../../../../nodes/VideoPlatform/shared/headerText';
import { anyCodePoint, anyText } from '../../../helpers/unicode';

const visibleAscii = fc.integer({ min: 0x20, max: 0x7e }).map((cp) => String.fromCodePoint(cp));

describe('isHeaderSafeText', () => {
	it('takes any text of visible ASCII and spaces, the empty text included', () => {
		fc.assert(fc.property(fc.string({ unit: visibleAscii }), (text) => expect(isHeaderSafeText(text)).toBe(true)));
	});

	it('refuses text with any other character anywhere in it', () => {
		const other = anyCodePoint.filter((char) => !/^[\x20-\x7e]$/.test(char));
		fc.assert(
			fc.property(anyText(), other, anyText(), (before, char, after) => expect(isHeaderSafeText(`${before}${char}${after}`)).toBe(false)),
		);
	});

	it.each(['\t', '\n', '\r', '\x7f', '\x1f', '\u00a0', 'é', '\u200b', '😀'])('refuses %j, which a header cannot carry as it is', (char) => {
		expect(isHeaderSafeText(`key${char}`)).toBe(false);
	});
});
