// Gets prompts and reads resources that ask questions, with an official TypeScript SDK client
// over Streamable HTTP: the v2 client (`@modelcontextprotocol/client`) on 2026-07-28, running
// the input-required rounds of `getPrompt` and `readResource` itself, or the v1 client
// (`@modelcontextprotocol/sdk`), which opens a session with `initialize` (2025-11-25) and
// answers each question the server sends on it as an `elicitation/create` request.
//
//   node drive_prompts.mjs (--v2 | --v1) URL SCENARIO_JSON
//   node drive_prompts.mjs --v1-stdio COMMAND SCENARIO_JSON   (v1, the server a child process)
//
// SCENARIO_JSON:
//   {"calls":   [{"prompt": "brief", "arguments": {"audience": "ops"}},
//                {"resource": "notes://7"}, ...],
//    "answers": [{"message": "<exact question>", "reply": <ElicitResult>},
//                {"message": "<exact question>", "replies": [<ElicitResult>, ...]}, ...],
//    "elicitation": false, "parallel": true}
// (see answers.mjs). With `"parallel": true` the calls are all sent at once, and the questions
// of all of them are listed in the output's `asked`, in the order they came, not in each call's. With `"elicitation": false` the client declares no elicitation capability.
// A reply `{"throw": "<message>"}` answers with an error. A reply `{"abort": true}` aborts the
// call instead of answering (the SDK sends `notifications/cancelled`) and waits up to 5 s for
// the server to withdraw the question.
//
// Prints one JSON line on stdout:
//   {"client": "typescript-v2" | "typescript-v1", "protocolVersion",
//    "calls": [{"asked": [{"message", "properties", "withdrawn"?}],
//               "result": GetPromptResult | ReadResourceResult
//               | "error": {"code", "message", "data"} | "aborted": true}],
//    "asked"?: [...] with "parallel"}
// and exits non-zero on any other failure (the message on stderr).

import { answerFor } from './answers.mjs';

function fail(message) {
    process.stderr.write(`drive_prompts.mjs: ${message}\n`);
    process.exit(1);
}

const [sdk, server, scenarioArg] = process.argv.slice(2);
if (!['--v2', '--v1', '--v1-stdio'].includes(sdk) || !server || !scenarioArg) {
    fail('usage: node drive_prompts.mjs (--v2 | --v1 | --v1-stdio) TARGET SCENARIO_JSON');
}
const stdio = sdk === '--v1-stdio';
const target = stdio ? null : new URL(server);
if (!stdio && target.hostname !== '127.0.0.1') fail(`refusing a non-loopback URL: ${server}`);
const scenario = JSON.parse(scenarioArg);
const elicitation = scenario.elicitation ?? true;

// The questions of the call in progress and its abort (calls run one after another).
let asked = [];
let call = new AbortController();

async function onElicit(request, signal) {
    const params = request.params;
    if (params.mode !== undefined && params.mode !== 'form') throw new Error(`unexpected elicitation mode ${params.mode}`);
    const properties = Object.keys(params.requestedSchema?.properties ?? {}).sort();
    const question = { message: params.message, properties };
    asked.push(question);
    const reply = answerFor(scenario, params.message, properties);
    if (reply.throw !== undefined) throw new Error(reply.throw);
    if (!reply.abort) return reply;
    call.abort();
    // The server's `notifications/cancelled` for this question aborts the handler's signal.
    question.withdrawn = await new Promise(resolve => {
        if (signal.aborted) return resolve(true);
        const timer = setTimeout(() => resolve(false), 5_000);
        signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve(true);
        });
    });
    return { action: 'cancel' };
}

async function connect() {
    if (sdk === '--v2') {
        const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
        const client = new Client(
            { name: 'mrtr-peer-typescript-prompts', version: '0.0.0' },
            {
                capabilities: elicitation ? { elicitation: { form: {} } } : {},
                versionNegotiation: { mode: { pin: '2026-07-28' } },
                inputRequired: { autoFulfill: true, maxRounds: 10 }
            }
        );
        if (elicitation) client.setRequestHandler('elicitation/create', (request, ctx) => onElicit(request, ctx.mcpReq.signal));
        await client.connect(new StreamableHTTPClientTransport(target));
        return { client, name: 'typescript-v2', protocolVersion: client.getNegotiatedProtocolVersion() };
    }
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    // An empty `elicitation` declares form mode (the SDK's backwards-compatible default).
    const client = new Client(
        { name: 'mrtr-peer-typescript-v1', version: '0.0.0' },
        { capabilities: elicitation ? { elicitation: {} } : {} }
    );
    if (elicitation) client.setRequestHandler(ElicitRequestSchema, (request, extra) => onElicit(request, extra.signal));
    // The server's stderr goes to ours, where the Rust test shows it on failure.
    const transport = stdio
        ? new StdioClientTransport({ command: server, args: [], stderr: 'inherit' })
        : new StreamableHTTPClientTransport(target);
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
    return { client, name: 'typescript-v1', protocolVersion };
}

const timer = setTimeout(() => fail('timed out after 30 s'), 30_000);
timer.unref();

try {
    const { client, name, protocolVersion } = await connect();
    // Each call's entry, in the scenario's order.
    async function run(each) {
        const options = { signal: call.signal };
        try {
            const result =
                each.prompt !== undefined
                    ? await client.getPrompt({ name: each.prompt, arguments: each.arguments }, options)
                    : await client.readResource({ uri: each.resource }, options);
            return { asked, result };
        } catch (error) {
            if (call.signal.aborted) return { asked, aborted: true };
            if (typeof error?.code !== 'number') throw error;
            // v1 prefixes the server's message with "MCP error <code>: ".
            const message = error.message.replace(/^MCP error -?\d+: /, '');
            return { asked, error: { code: error.code, message, data: error.data } };
        }
    }
    const calls = [];
    if (scenario.parallel) {
        // All at once on the one connection: their questions are listed once, in `asked`.
        for (const { asked: _, ...entry } of await Promise.all(scenario.calls.map(run))) calls.push(entry);
    } else {
        for (const each of scenario.calls) {
            asked = [];
            call = new AbortController();
            calls.push(await run(each));
        }
    }
    await client.close();
    const output = { client: name, protocolVersion, calls };
    if (scenario.parallel) output.asked = asked;
    process.stdout.write(JSON.stringify(output) + '\n');
    process.exit(0);
} catch (error) {
    fail(error?.stack ?? String(error));
}
