// Answers every kind of question with the official TypeScript SDK v2 client
// (`@modelcontextprotocol/client`) over Streamable HTTP, on protocol 2026-07-28: form and URL
// elicitation, sampling and roots, through `callTool`, `getPrompt` and `readResource`, the SDK
// running the input-required rounds itself.
//
//   node drive_kinds.mjs URL
//
// The server is `tests/spec_audit.rs`'s: tool `all_kinds`, prompt `topic`, resource
// `audit://topic`. Prints one JSON line on stdout:
//   {"client": "typescript", "protocolVersion": "2026-07-28",
//    "asked": [{"kind", ...what the question carried}],
//    "tool": CallToolResult, "prompt": GetPromptResult, "resource": ReadResourceResult}
// and exits non-zero on any error (the message on stderr).

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const PROTOCOL = '2026-07-28';

function fail(message) {
    process.stderr.write(`drive_kinds.mjs: ${message}\n`);
    process.exit(1);
}

const [url] = process.argv.slice(2);
if (!url) fail('usage: node drive_kinds.mjs URL');
const target = new URL(url);
if (target.hostname !== '127.0.0.1') fail(`refusing a non-loopback URL: ${url}`);

const asked = [];

const client = new Client(
    { name: 'mrtr-peer-typescript-kinds', version: '0.0.0' },
    {
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
        versionNegotiation: { mode: { pin: PROTOCOL } },
        inputRequired: { autoFulfill: true, maxRounds: 10 }
    }
);

client.setRequestHandler('elicitation/create', async (request, ctx) => {
    const params = request.params;
    const key = String(ctx.mcpReq.id);
    if (params.mode === 'url') {
        asked.push({ kind: 'url', key, message: params.message, url: params.url });
        // Accept means only that the user agreed to open the page: no content.
        return { action: 'accept' };
    }
    const properties = Object.keys(params.requestedSchema?.properties ?? {}).sort();
    asked.push({ kind: 'form', key, message: params.message, properties });
    return { action: 'accept', content: { name: 'Ada' } };
});

client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
    const params = request.params;
    const texts = params.messages.flatMap(message =>
        [message.content].flat().filter(block => block.type === 'text').map(block => block.text)
    );
    asked.push({
        kind: 'sampling',
        key: String(ctx.mcpReq.id),
        texts,
        maxTokens: params.maxTokens,
        systemPrompt: params.systemPrompt
    });
    return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'ts-model', stopReason: 'endTurn' };
});

client.setRequestHandler('roots/list', async (_request, ctx) => {
    asked.push({ kind: 'roots', key: String(ctx.mcpReq.id) });
    return { roots: [{ uri: 'file:///home/ada', name: 'home' }] };
});

const timer = setTimeout(() => fail('timed out after 30 s'), 30_000);
timer.unref();

try {
    await client.connect(new StreamableHTTPClientTransport(target));
    const protocolVersion = client.getNegotiatedProtocolVersion();
    if (protocolVersion !== PROTOCOL) throw new Error(`negotiated ${protocolVersion}, not ${PROTOCOL}`);
    const tool = await client.callTool({ name: 'all_kinds', arguments: {} });
    const prompt = await client.getPrompt({ name: 'topic' });
    const resource = await client.readResource({ uri: 'audit://topic' });
    await client.close();
    process.stdout.write(JSON.stringify({ client: 'typescript', protocolVersion, asked, tool, prompt, resource }) + '\n');
    process.exit(0);
} catch (error) {
    fail(error?.stack ?? String(error));
}
