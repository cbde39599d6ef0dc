// Drives the wizard with the official TypeScript SDK v2 client (`@modelcontextprotocol/client`)
// over Streamable HTTP, on protocol 2026-07-28, letting the SDK run the input-required rounds.
//
//   node drive.mjs URL [SCENARIO_JSON]
//
// SCENARIO_JSON (default: the happy path for team "Rust", see DEFAULT_SCENARIO):
//   {"negotiation": "pin" (default) | "auto",
//    "maxRounds": 10 (default, the SDK's),
//    "calls":   [{"name": "signup", "arguments": {"team": "Rust"}}, ...],
//    "answers": [{"message": "<exact question>", "reply": <ElicitResult>},
//                {"properties": ["plan"], "reply": <ElicitResult>}, ...]}
// An elicitation is answered by the first answer whose message equals its message, else the
// first whose sorted `properties` equal its requested schema's property names. A question with
// no scripted answer is an error.
//
// Prints one JSON line on stdout:
//   {"client": ..., "protocolVersion": "2026-07-28",
//    "calls": [{"name", "asked": [{"key", "message", "properties"}], "result": CallToolResult}]}
// and exits non-zero on any error (the message on stderr).

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerFor } from './answers.mjs';

const PROTOCOL = '2026-07-28';

const DEFAULT_SCENARIO = {
    calls: [
        { name: 'signup', arguments: { team: 'Rust' } },
        { name: 'onboard', arguments: { team: 'Rust' } }
    ],
    answers: [
        { message: 'Welcome to Rust! What should we call you?', reply: { action: 'accept', content: { name: 'Ada' } } },
        { message: 'Which plan would you like?', reply: { action: 'accept', content: { plan: 'pro' } } },
        { message: 'Sign Ada up for pro?', reply: { action: 'accept', content: { confirm: true } } },
        { message: 'Which role will you take?', reply: { action: 'accept', content: { role: 'admin' } } },
        {
            message: 'Admins can delete repositories. Continue as admin?',
            reply: { action: 'accept', content: { confirm: true } }
        },
        {
            message: 'Add a repository to watch (0 so far)',
            reply: { action: 'accept', content: { repo: 'mrtr', more: true } }
        },
        {
            message: 'Add a repository to watch (1 so far)',
            reply: { action: 'accept', content: { repo: 'rmcp', more: false } }
        },
        { message: 'Notifications for mrtr?', reply: { action: 'accept', content: { level: 'all' } } },
        { message: 'Notifications for rmcp?', reply: { action: 'accept', content: { level: 'mentions' } } }
    ]
};

function fail(message) {
    process.stderr.write(`drive.mjs: ${message}\n`);
    process.exit(1);
}

const [url, scenarioArg] = process.argv.slice(2);
if (!url) fail('usage: node drive.mjs URL [SCENARIO_JSON]');
const target = new URL(url);
if (target.hostname !== '127.0.0.1') fail(`refusing a non-loopback URL: ${url}`);
const scenario = scenarioArg ? JSON.parse(scenarioArg) : DEFAULT_SCENARIO;

// The questions of the call in progress (calls run one after another).
let asked = [];

const client = new Client(
    { name: 'mrtr-peer-typescript', version: '0.0.0' },
    {
        capabilities: { elicitation: { form: {} } },
        // `{ pin }` (the default) requires 2026-07-28 from `server/discover`; `auto` probes and picks.
        versionNegotiation: { mode: scenario.negotiation === 'auto' ? 'auto' : { pin: PROTOCOL } },
        // The SDK's default cap is 10 rounds per call.
        inputRequired: { autoFulfill: true, maxRounds: scenario.maxRounds ?? 10 }
    }
);

// The SDK hands each embedded `elicitation/create` of an input_required result to this handler;
// `ctx.mcpReq.id` is the request's key in `inputRequests`.
client.setRequestHandler('elicitation/create', async (request, ctx) => {
    const params = request.params;
    if (params.mode !== undefined && params.mode !== 'form') throw new Error(`unexpected elicitation mode ${params.mode}`);
    const properties = Object.keys(params.requestedSchema?.properties ?? {}).sort();
    asked.push({ key: String(ctx.mcpReq.id), message: params.message, properties });
    return answerFor(scenario, params.message, properties);
});

const timer = setTimeout(() => fail('timed out after 30 s'), 30_000);
timer.unref();

try {
    await client.connect(new StreamableHTTPClientTransport(target));
    const protocolVersion = client.getNegotiatedProtocolVersion();
    if (protocolVersion !== PROTOCOL) throw new Error(`negotiated ${protocolVersion}, not ${PROTOCOL}`);
    const calls = [];
    for (const call of scenario.calls) {
        asked = [];
        const result = await client.callTool({ name: call.name, arguments: call.arguments });
        calls.push({ name: call.name, asked, result });
    }
    await client.close();
    process.stdout.write(JSON.stringify({ client: 'typescript', protocolVersion, calls }) + '\n');
    process.exit(0);
} catch (error) {
    fail(error?.stack ?? String(error));
}
