"""Drives the wizard with the official Python SDK (`mcp==2.3.0`) as a client of the earlier
protocol: `Client(..., mode="legacy")` initializes at 2025-11-25 and answers each question the
server sends on the session as an `elicitation/create` request, through its elicitation
callback. Over Streamable HTTP (a URL) or over stdio (a command it launches).

    python drive_legacy.py --url URL SCENARIO_JSON
    python drive_legacy.py --stdio COMMAND SCENARIO_JSON

SCENARIO_JSON:
    {"calls":   [{"name": "signup", "arguments": {"team": "Rust"}}, ...],
     "answers": [{"message": "<exact question>", "reply": <ElicitResult>},
                 {"properties": ["plan"], "reply": {"action": "decline"}}, ...]}
An elicitation is answered by the first answer whose message equals its message, else the
first whose sorted `properties` equal its requested schema's property names. A question with
no scripted answer is an error.

Prints one JSON line on stdout:
    {"client": "python-legacy", "transport": "http" | "stdio", "protocolVersion": "2025-11-25",
     "calls": [{"name", "asked": [{"requestId", "message", "properties"}], "result": CallToolResult}]}
and exits non-zero on any error (the message on stderr).
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any
from urllib.parse import urlsplit

import anyio
import mcp.types as types
from mcp import Client, StdioServerParameters
from mcp.client.session import ClientRequestContext

from answers import answer_for


def fail(message: str) -> None:
    sys.stderr.write(f"drive_legacy.py: {message}\n")
    sys.exit(1)


async def drive(server: str | StdioServerParameters, transport: str, scenario: dict[str, Any]) -> dict[str, Any]:
    # The questions of the call in progress (calls run one after another).
    asked: list[dict[str, Any]] = []

    async def on_elicit(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        # On a legacy session each question is its own `elicitation/create` request;
        # `context.request_id` is that request's JSON-RPC id.
        if not isinstance(params, types.ElicitRequestFormParams):
            raise RuntimeError(f"unexpected elicitation: {params!r}")
        properties = sorted((params.requested_schema or {}).get("properties", {}).keys())
        asked.append({"requestId": context.request_id, "message": params.message, "properties": properties})
        return types.ElicitResult.model_validate(answer_for(scenario, params.message, properties))

    calls: list[dict[str, Any]] = []
    # `mode="legacy"` runs the initialize handshake (2025-11-25) and no `server/discover`.
    # Passing the callback declares the elicitation capability.
    async with Client(
        server,
        mode="legacy",
        elicitation_callback=on_elicit,
        read_timeout_seconds=20,
    ) as client:
        for call in scenario["calls"]:
            asked = []
            result = await client.call_tool(call["name"], call.get("arguments"))
            calls.append(
                {
                    "name": call["name"],
                    "asked": asked,
                    "result": result.model_dump(mode="json", by_alias=True, exclude_none=True),
                }
            )
        protocol_version = client.protocol_version
    return {"client": "python-legacy", "transport": transport, "protocolVersion": protocol_version, "calls": calls}


async def bounded(server: str | StdioServerParameters, transport: str, scenario: dict[str, Any]) -> dict[str, Any]:
    with anyio.fail_after(30):
        return await drive(server, transport, scenario)


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] not in ("--url", "--stdio"):
        fail("usage: python drive_legacy.py (--url URL | --stdio COMMAND) SCENARIO_JSON")
    server: str | StdioServerParameters
    if sys.argv[1] == "--url":
        url = sys.argv[2]
        if urlsplit(url).hostname != "127.0.0.1":
            fail(f"refusing a non-loopback URL: {url}")
        server, transport = url, "http"
    else:
        # The SDK launches the command with its default environment and reads its stdout.
        server, transport = StdioServerParameters(command=sys.argv[2]), "stdio"
    scenario = json.loads(sys.argv[3])
    try:
        output = anyio.run(bounded, server, transport, scenario)
    except BaseException:  # noqa: BLE001 - any failure, including exception groups, exits non-zero
        fail(traceback.format_exc())
    sys.stdout.write(json.dumps(output) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
