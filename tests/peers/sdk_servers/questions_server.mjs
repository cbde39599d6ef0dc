// The `questions` benchmark tool (mrtr's `examples/src/questions.rs`) written with the official
// TypeScript SDK v2, `@modelcontextprotocol/server` 2.4.0, the way its documentation teaches
// (docs/servers/input-required.md and docs/serving/http.md of the SDK).
//
//     node questions_server.mjs --port N
//
// Serves stateless Streamable HTTP on http://127.0.0.1:N/mcp through `createMcpHandler` (a fresh
// McpServer per request), mounted on plain `node:http` with `toNodeHandler` and the localhost
// Host/Origin guards of `@modelcontextprotocol/node`. Prints `ready <url>` on stdout once
// listening; exits on SIGTERM or SIGINT. Nothing is logged per request.
//
// `questions` asks N questions (1 to 100), one per round under the keys q1..qN, and joins the
// answers: a write-once handler that reads the latest answer with `inputResponse` /
// `acceptedContent`, keeps the answers so far in `requestState` minted by the SDK's HMAC codec
// (`createRequestStateCodec`, verified by the `requestState.verify` hook before the handler runs),
// and returns `inputRequired(...)` with the next question until all are answered.

import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import {
    acceptedContent,
    createMcpHandler,
    createRequestStateCodec,
    inputRequired,
    inputResponse,
    McpServer
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const MAX_QUESTIONS = 100;

// Every question is this one-field form: the wire schema, written out (a zod schema converts with a
// `$schema` member added), and the zod schema `acceptedContent` validates each answer with.
const ANSWER_FORM = {
    type: 'object',
    properties: { answer: { type: 'string', description: 'Your answer.' } },
    required: ['answer']
};
const answerSchema = z.object({ answer: z.string() });

// Per-process HMAC key: one process serves every round here. A fleet would share a key.
const stateCodec = createRequestStateCodec({
    key: crypto.getRandomValues(new Uint8Array(32)),
    ttlSeconds: 600
});

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], ...(isError && { isError }) });

function buildServer() {
    const server = new McpServer({ name: 'questions', version: '1.0.0' }, { requestState: { verify: stateCodec.verify } });
    server.registerTool(
        'questions',
        {
            description: 'Asks `questions` questions (1 to 100), one per round under the keys q1..qN, and joins the answers',
            inputSchema: z.object({ questions: z.number().int().describe('How many questions to ask, one per round: 1 to 100.') })
        },
        async ({ questions }, ctx) => {
            if (questions < 1 || questions > MAX_QUESTIONS) {
                return text(`questions must be 1 to ${MAX_QUESTIONS}, not ${questions}`, true);
            }
            // The answers so far, from the verified state of the previous round.
            const answers = [...(ctx.mcpReq.requestState()?.answers ?? [])];
            const key = `q${answers.length + 1}`;
            const view = inputResponse(ctx.mcpReq.inputResponses, key);
            if (view.kind === 'elicit' && view.action !== 'accept') {
                return text(`Cancelled at ${key}`, true);
            }
            const reply = acceptedContent(ctx.mcpReq.inputResponses, key, answerSchema);
            if (reply !== undefined) answers.push(reply.answer);
            if (answers.length >= questions) {
                return text(answers.join(', '));
            }
            const number = answers.length + 1;
            return inputRequired({
                inputRequests: {
                    [`q${number}`]: inputRequired.elicit({ message: `Question ${number} of ${questions}`, requestedSchema: ANSWER_FORM })
                },
                // Mint only what this round proved: the answers received so far.
                requestState: await stateCodec.mint({ answers })
            });
        }
    );
    return server;
}

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error('usage: node questions_server.mjs --port N');
    process.exit(2);
}

const handler = createMcpHandler(buildServer);
const nodeHandler = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
const http = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
    }
    void nodeHandler(req, res);
});
http.listen(port, '127.0.0.1', () => {
    process.stdout.write(`ready http://127.0.0.1:${port}/mcp\n`);
});

async function shutdown() {
    http.close();
    http.closeIdleConnections();
    await handler.close();
    process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
