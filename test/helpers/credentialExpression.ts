/**
 * Evaluates one of the credential's `={{ ... }}` expressions the way n8n would for these
 * simple string expressions, so that unit tests can check them without a running n8n.
 */
export function evaluateCredentialExpression(expression: string, credentials: object): unknown {
	const match = /^=\{\{([\s\S]*)\}\}$/.exec(expression);
	if (!match) throw new Error(`Not an n8n expression: ${expression}`);
	// Mirrors n8n's own expression evaluation, which compiles the expression to a function.
	const evaluate = new Function('$credentials', `return (${match[1]});`) as (c: object) => unknown;
	return evaluate(credentials);
}
