"""Gets prompts and reads resources that ask questions, with the official Python SDK
(`mcp==2.3.0`) over Streamable HTTP: on 2026-07-28 the SDK runs the input-required rounds of
`get_prompt` and `read_resource` itself; with `mode="legacy"` it initializes at 2025-11-25 and
answers each question the server sends on its session as an `elicitation/create` request.
Either way the questions reach its elicitation callback.

    python drive_prompts.py (--native | --legacy) URL SCENARIO_JSON
    python drive_prompts.py --legacy-stdio COMMAND SCENARIO_JSON   (the server a child process)

SCENARIO_JSON:
    {"calls":   [{"prompt": "brief", "arguments": {"audience": "ops"}},
                 {"resource": "notes://7"}, ...],
     "answers": [{"message": "<exact question>", "reply": <ElicitResult>},
                 {"message": "<exact question>", "replies": [<ElicitResult>, ...]}, ...],
     "elicitation": false, "parallel": true}
(see answers.py). With `"parallel": true` the calls are all sent at once, and the questions of
all of them are listed in the output's `asked`, in the order they came, not in each call's.
A reply `{"throw": "<message>"}` answers with an error instead. A reply `{"abort": true}`
abandons the call (the SDK sends `notifications/cancelled`) and waits up to 5 s for the server
to withdraw the question. With `"elicitation": false` the client declares no elicitation
capability.

Prints one JSON line on stdout:
    {"client": "python", "protocolVersion",
     "calls": [{"asked": [{"message", "properties", "withdrawn"?}],
                "result": GetPromptResult | ReadResourceResult
                | "error": {"code", "message", "data"} | "aborted": true}],
     "asked"?: [...] with "parallel"}
and exits non-zero on any other failure (the message on stderr).
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
from mcp.shared.exceptions import MCPError

from answers import answer_for

MODES = {"--native": "2026-07-28", "--legacy": "legacy", "--legacy-stdio": "legacy"}


def fail(message: str) -> None:
    sys.stderr.write(f"drive_prompts.py: {message}\n")
    sys.exit(1)


async def drive(server: str | StdioServerParameters, mode: str, scenario: dict[str, Any]) -> dict[str, Any]:
    # The questions of the call in progress and its scope (calls run one after another).
    asked: list[dict[str, Any]] = []
    call_scope = anyio.CancelScope()
    # Set once an abandoned call's question is withdrawn or has waited in vain.
    settled = anyio.Event()

    async def on_elicit(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        if not isinstance(params, types.ElicitRequestFormParams):
            raise RuntimeError(f"unexpected elicitation: {params!r}")
        properties = sorted((params.requested_schema or {}).get("properties", {}).keys())
        question: dict[str, Any] = {"message": params.message, "properties": properties}
        asked.append(question)
        reply = answer_for(scenario, params.message, properties)
        if "throw" in reply:
            raise RuntimeError(reply["throw"])
        if reply.get("abort"):
            call_scope.cancel()
            # The server's `notifications/cancelled` for this question cancels this handler.
            question["withdrawn"] = False
            try:
                await anyio.sleep(5)
            except anyio.get_cancelled_exc_class():
                question["withdrawn"] = True
                raise
            finally:
                settled.set()
            return types.ElicitResult(action="cancel")
        return types.ElicitResult.model_validate(reply)

    def dump(model: Any) -> Any:
        return model.model_dump(mode="json", by_alias=True, exclude_none=True)

    calls: list[dict[str, Any]] = []
    # Passing the callback declares the elicitation capability.
    callback = on_elicit if scenario.get("elicitation", True) else None
    async with Client(server, mode=mode, elicitation_callback=callback, read_timeout_seconds=20) as client:

        async def fetch(call: dict[str, Any]) -> Any:
            if "prompt" in call:
                return await client.get_prompt(call["prompt"], call.get("arguments"))
            return await client.read_resource(call["resource"])

        if scenario.get("parallel"):
            # All at once on the one connection: their questions are listed once, in `asked`.
            results: list[dict[str, Any]] = [{} for _ in scenario["calls"]]

            async def run(index: int, call: dict[str, Any]) -> None:
                try:
                    results[index] = {"result": dump(await fetch(call))}
                except MCPError as error:
                    results[index] = {"error": dump(error.error)}

            async with anyio.create_task_group() as group:
                for index, call in enumerate(scenario["calls"]):
                    group.start_soon(run, index, call)
            calls = results
            scenario["calls"] = []
        for call in scenario["calls"]:
            asked = []
            call_scope = anyio.CancelScope()
            settled = anyio.Event()
            try:
                with call_scope:
                    calls.append({"asked": asked, "result": dump(await fetch(call))})
            except MCPError as error:
                calls.append({"asked": asked, "error": dump(error.error)})
            if call_scope.cancel_called:
                await settled.wait()
                calls.append({"asked": asked, "aborted": True})
        protocol_version = client.protocol_version
    output = {"client": "python", "protocolVersion": protocol_version, "calls": calls}
    if scenario.get("parallel"):
        output["asked"] = asked
    return output


async def bounded(server: str | StdioServerParameters, mode: str, scenario: dict[str, Any]) -> dict[str, Any]:
    with anyio.fail_after(30):
        return await drive(server, mode, scenario)


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] not in MODES:
        fail("usage: python drive_prompts.py (--native | --legacy | --legacy-stdio) TARGET SCENARIO_JSON")
    server: str | StdioServerParameters
    if sys.argv[1] == "--legacy-stdio":
        # The SDK launches the command with its default environment and reads its stdout.
        server = StdioServerParameters(command=sys.argv[2])
    else:
        server = sys.argv[2]
        if urlsplit(server).hostname != "127.0.0.1":
            fail(f"refusing a non-loopback URL: {server}")
    scenario = json.loads(sys.argv[3])
    try:
        output = anyio.run(bounded, server, MODES[sys.argv[1]], scenario)
    except BaseException:  # noqa: BLE001 - any failure, including exception groups, exits non-zero
        fail(traceback.format_exc())
    sys.stdout.write(json.dumps(output) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
