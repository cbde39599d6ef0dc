"""Drives the wizard with the official Python SDK (`mcp==2.3.0`) over Streamable HTTP, on
protocol 2026-07-28, letting `Client.call_tool` run the input-required rounds.

    python drive.py URL [SCENARIO_JSON]

SCENARIO_JSON (default: the happy path for team "Rust", see DEFAULT_SCENARIO):
    {"negotiation": "pin" (default) | "auto",
     "maxRounds": 10 (default, the SDK's),
     "calls":   [{"name": "signup", "arguments": {"team": "Rust"}}, ...],
     "answers": [{"message": "<exact question>", "reply": <ElicitResult>},
                 {"properties": ["plan"], "reply": <ElicitResult>}, ...]}
An elicitation is answered by the first answer whose message equals its message, else the
first whose sorted `properties` equal its requested schema's property names. A question with
no scripted answer is an error.

Prints one JSON line on stdout:
    {"client": ..., "protocolVersion": "2026-07-28",
     "calls": [{"name", "asked": [{"key", "message", "properties"}], "result": CallToolResult}]}
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
from mcp import Client
from mcp.client.session import ClientRequestContext

from answers import answer_for

PROTOCOL = "2026-07-28"


def accept(content: dict[str, Any]) -> dict[str, Any]:
    return {"action": "accept", "content": content}


DEFAULT_SCENARIO: dict[str, Any] = {
    "calls": [
        {"name": "signup", "arguments": {"team": "Rust"}},
        {"name": "onboard", "arguments": {"team": "Rust"}},
    ],
    "answers": [
        {"message": "Welcome to Rust! What should we call you?", "reply": accept({"name": "Ada"})},
        {"message": "Which plan would you like?", "reply": accept({"plan": "pro"})},
        {"message": "Sign Ada up for pro?", "reply": accept({"confirm": True})},
        {"message": "Which role will you take?", "reply": accept({"role": "admin"})},
        {"message": "Admins can delete repositories. Continue as admin?", "reply": accept({"confirm": True})},
        {"message": "Add a repository to watch (0 so far)", "reply": accept({"repo": "mrtr", "more": True})},
        {"message": "Add a repository to watch (1 so far)", "reply": accept({"repo": "rmcp", "more": False})},
        {"message": "Notifications for mrtr?", "reply": accept({"level": "all"})},
        {"message": "Notifications for rmcp?", "reply": accept({"level": "mentions"})},
    ],
}


def fail(message: str) -> None:
    sys.stderr.write(f"drive.py: {message}\n")
    sys.exit(1)


async def drive(url: str, scenario: dict[str, Any]) -> dict[str, Any]:
    # The questions of the call in progress (calls run one after another).
    asked: list[dict[str, Any]] = []

    async def on_elicit(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        # `context.request_id` is the request's key in `inputRequests`.
        if not isinstance(params, types.ElicitRequestFormParams):
            raise RuntimeError(f"unexpected elicitation: {params!r}")
        properties = sorted((params.requested_schema or {}).get("properties", {}).keys())
        asked.append({"key": str(context.request_id), "message": params.message, "properties": properties})
        return types.ElicitResult.model_validate(answer_for(scenario, params.message, properties))

    calls: list[dict[str, Any]] = []
    # `mode=PROTOCOL` (the default) adopts 2026-07-28 without a probe; `auto` probes
    # `server/discover`. Passing the callback declares the elicitation capability.
    mode = "auto" if scenario.get("negotiation") == "auto" else PROTOCOL
    # The SDK's default cap is 10 rounds per call.
    max_rounds = scenario.get("maxRounds", 10)
    async with Client(
        url,
        mode=mode,
        elicitation_callback=on_elicit,
        input_required_max_rounds=max_rounds,
        read_timeout_seconds=20,
    ) as client:
        if client.protocol_version != PROTOCOL:
            raise RuntimeError(f"negotiated {client.protocol_version}, not {PROTOCOL}")
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
    return {"client": "python", "protocolVersion": protocol_version, "calls": calls}


async def bounded(url: str, scenario: dict[str, Any]) -> dict[str, Any]:
    with anyio.fail_after(30):
        return await drive(url, scenario)


def main() -> None:
    if len(sys.argv) < 2:
        fail("usage: python drive.py URL [SCENARIO_JSON]")
    url = sys.argv[1]
    if urlsplit(url).hostname != "127.0.0.1":
        fail(f"refusing a non-loopback URL: {url}")
    scenario = json.loads(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_SCENARIO
    try:
        output = anyio.run(bounded, url, scenario)
    except BaseException:  # noqa: BLE001 - any failure, including exception groups, exits non-zero
        fail(traceback.format_exc())
    sys.stdout.write(json.dumps(output) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
