import fc from 'fast-check';

/** Markup that n8n's editor keeps after its cleaning: a link over the whole screen, an image, and attacks around quotes. */
export const MARKUP_EXAMPLES = [
	'<a href="https://evil.example/" style="position:fixed;inset:0;z-index:99999" target="_blank">Session expired: sign in</a>',
	'<img src="https://evil.example/track.png">',
	"<a href='javascript:alert(1)'>x</a>",
	'"><img src=x onerror=alert(1)>',
	'<svg onload=alert(1)>',
	'</div><a href=https://evil.example>',
];

/** A tag of any name with any attributes, full Unicode. */
const anyTag = fc
	.tuple(fc.constantFrom('a', 'img', 'A', 'IMG', 'svg', 'iframe', 'b', 'span'), fc.string({ unit: 'binary', maxLength: 40 }), fc.boolean())
	.map(([name, attributes, closing]) => `<${closing ? '/' : ''}${name} ${attributes}>`);

/** Text from outside the node: full Unicode, with markup somewhere in it. */
export const outsideTextWithMarkup = fc
	.tuple(fc.string({ unit: 'binary', maxLength: 60 }), fc.oneof(fc.constantFrom(...MARKUP_EXAMPLES), anyTag), fc.string({ unit: 'binary', maxLength: 60 }))
	.map((parts) => parts.join(''));

/** Angle brackets, the characters that open markup: none may reach what the editor shows. */
export const ANGLE_BRACKETS = /[<>]/;
