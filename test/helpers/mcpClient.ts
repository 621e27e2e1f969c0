import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A real MCP client on streamable HTTP; `token` goes in the Bearer header when given. */
export async function connectMcpClient(url: string, token?: string): Promise<Client> {
	const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
	const client = new Client({ name: 'videoplatform-e2e', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
	return client;
}

/** A tool result's text, joined; MCP results are a list of content parts. */
export function resultText(result: Record<string, unknown>): string {
	const parts = Array.isArray(result.content) ? (result.content as Array<{ type: string; text?: string }>) : [];
	return parts
		.filter((part) => part.type === 'text')
		.map((part) => part.text ?? '')
		.join('\n');
}
