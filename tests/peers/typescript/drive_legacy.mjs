// Drives the wizard with the official TypeScript SDK v1 client (`@modelcontextprotocol/sdk`), a
// client of the earlier protocol: it opens a session with `initialize` (2025-11-25) and answers
// each question the server sends it as an `elicitation/create` request on that session.
//
//   node drive_legacy.mjs --url URL SCENARIO_JSON        Streamable HTTP, with Mcp-Session-Id
//   node drive_legacy.mjs --stdio COMMAND SCENARIO_JSON  stdio, the server a child process
//
// SCENARIO_JSON:
//   {"calls":   [{"name": "signup", "arguments": {"team": "Rust"}}, ...],
//    "answers": [{"message": "<exact question>", "reply": <ElicitResult>},
//                {"properties": ["plan"], "reply": {"action": "decline"}}, ...]}
// An elicitation is answered by the first answer whose message equals its message, else the
// first whose sorted `properties` equal its requested schema's property names. A question with
// no scripted answer is an error.
//
// Prints one JSON line on stdout:
//   {"client": "typescript-v1", "transport": "http" | "stdio", "protocolVersion": "2025-11-25",
//    "sessionId": <Mcp-Session-Id, or null on stdio>,
//    "calls": [{"name", "asked": [{"message", "properties"}], "result": CallToolResult}]}
// and exits non-zero on any error (the message on stderr).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { answerFor } from './answers.mjs';

function fail(message) {
    process.stderr.write(`drive_legacy.mjs: ${message}\n`);
    process.exit(1);
}

const [mode, target, scenarioArg] = process.argv.slice(2);
if (!['--url', '--stdio'].includes(mode) || !target || !scenarioArg) {
    fail('usage: node drive_legacy.mjs (--url URL | --stdio COMMAND) SCENARIO_JSON');
}
const scenario = JSON.parse(scenarioArg);

function transportFor() {
    if (mode === '--url') {
        const url = new URL(target);
        if (url.hostname !== '127.0.0.1') fail(`refusing a non-loopback URL: ${target}`);
        return new StreamableHTTPClientTransport(url);
    }
    // The server's stderr goes to ours, where the Rust test shows it on failure.
    return new StdioClientTransport({ command: target, args: [], stderr: 'inherit' });
}

// The questions of the call in progress (calls run one after another).
let asked = [];

const client = new Client(
    { name: 'mrtr-peer-typescript-v1', version: '0.0.0' },
    // An empty `elicitation` declares form mode (the SDK's backwards-compatible default).
    { capabilities: { elicitation: {} } }
);

client.setRequestHandler(ElicitRequestSchema, async request => {
    const params = request.params;
    if (params.mode !== undefined && params.mode !== 'form') throw new Error(`unexpected elicitation mode ${params.mode}`);
    const properties = Object.keys(params.requestedSchema?.properties ?? {}).sort();
    asked.push({ message: params.message, properties });
    return answerFor(scenario, params.message, properties);
});

const timer = setTimeout(() => fail('timed out after 30 s'), 30_000);
timer.unref();

try {
    const transport = transportFor();
    // The v1 SDK keeps no record of the negotiated version, so read it off the `initialize`
    // response; `Protocol.connect` chains a handler set before it.
    let protocolVersion = null;
    transport.onmessage = message => {
        const result = message?.result;
        if (protocolVersion === null && result?.protocolVersion !== undefined && result?.serverInfo !== undefined) {
            protocolVersion = result.protocolVersion;
        }
    };
    await client.connect(transport);
    if (mode === '--url' && transport.protocolVersion !== protocolVersion) {
        throw new Error(`the transport sends version ${transport.protocolVersion}, initialize said ${protocolVersion}`);
    }
    const sessionId = mode === '--url' ? (transport.sessionId ?? null) : null;
    const calls = [];
    for (const call of scenario.calls) {
        asked = [];
        const result = await client.callTool({ name: call.name, arguments: call.arguments });
        calls.push({ name: call.name, asked, result });
    }
    await client.close();
    process.stdout.write(
        JSON.stringify({
            client: 'typescript-v1',
            transport: mode === '--url' ? 'http' : 'stdio',
            protocolVersion,
            sessionId,
            calls
        }) + '\n'
    );
    process.exit(0);
} catch (error) {
    fail(error?.stack ?? String(error));
}
