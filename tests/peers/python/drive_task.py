"""Drives task tools (the `io.modelcontextprotocol/tasks` extension, SEP-2663) with the
official Python SDK (`mcp==2.3.0`) over Streamable HTTP, on protocol 2026-07-28.

    python drive_task.py URL

The SDK has no tasks support of its own: a `ClientExtension` claims `resultType: "task"` on
`tools/call`, and its resolver polls `tasks/get`, answers `inputRequests` through the client's
own elicitation callback and sends the answers with `tasks/update`. Runs `confirm_delete`,
`multi_input`, `test_tool_with_task` (an input-required round first, run by the SDK), then
starts `slow_compute` as a task and cancels it. Prints one JSON line per call:
    {"tool", "text", "taskId", "keys": [inputRequests keys seen in tasks/get, first-seen
     order], "status": <final task status>, "asked": [messages the elicitation callback saw]}
then `{"calls": [...]}` with all of them, and exits non-zero on any error (the message on
stderr).
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

import anyio
import mcp.types as types
from mcp import Client
from mcp.client import ClientRequestContext
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.session import ClientSession
from pydantic import TypeAdapter

from answers import answer_for

PROTOCOL = "2026-07-28"
TASK_DEADLINE_S = 20.0  # per task, from creation to a terminal status
CANCEL_DEADLINE_S = 10.0


def accept(content: dict[str, Any]) -> dict[str, Any]:
    return {"action": "accept", "content": content}


SCENARIO: dict[str, Any] = {
    "answers": [
        {"message": "Delete 'py.txt'?", "reply": accept({"confirm": True})},
        {"message": "Enter your name:", "reply": accept({"name": "Grace"})},
        {"message": "Confirm action?", "reply": accept({"confirm": True})},
        {"message": "What is your name?", "reply": accept({"name": "Alice"})},
    ]
}

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("confirm_delete", {"filename": "py.txt"}),
    ("multi_input", {}),
    ("test_tool_with_task", {}),  # an input-required round on tools/call, then the task
]


# Wire models of the extension; MCPModel's alias generator gives the camelCase names.
class CreateTaskResult(types.Result):
    """The claimed `tools/call` result (a claim model may not declare `inputRequests`)."""

    result_type: Literal["task"]
    task_id: str
    status: str
    poll_interval_ms: int | None = None


class TaskState(types.Result):
    """A `tasks/get` result: the task, with its open questions, its result or its error."""

    task_id: str
    status: str
    poll_interval_ms: int | None = None
    status_message: str | None = None
    input_requests: dict[str, Any] | None = None
    result: types.CallToolResult | None = None
    error: dict[str, Any] | None = None


class TaskParams(types.RequestParams):
    task_id: str
    input_responses: types.InputResponses | None = None  # tasks/update only


# `name_param` mirrors params.taskId into the `Mcp-Name` header, which SEP-2663 requires.
class GetTask(types.Request[TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    name_param = "taskId"


class UpdateTask(types.Request[TaskParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    name_param = "taskId"


class CancelTask(types.Request[TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    name_param = "taskId"


INPUT_REQUESTS = TypeAdapter(dict[str, types.InputRequest])


@dataclass
class Trace:
    """What one call saw; calls run one after another, so one trace is current at a time."""

    asked: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    task_id: str | None = None
    status: str | None = None


class TasksExtension(ClientExtension):
    identifier = "io.modelcontextprotocol/tasks"

    def __init__(self) -> None:
        self.trace = Trace()

    def claims(self) -> Sequence[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreateTaskResult, resolve=self.resolve)]

    def start(self, task: CreateTaskResult) -> None:
        self.trace.task_id, self.trace.status = task.task_id, task.status

    async def get(self, session: ClientSession, task_id: str) -> TaskState:
        state = await session.send_request(GetTask(params=TaskParams(task_id=task_id)), TaskState)
        self.trace.status = state.status
        return state

    async def resolve(self, task: CreateTaskResult, ctx: ClaimContext) -> types.CallToolResult:
        """Poll the task to its end, answering each of its questions once."""
        self.start(task)
        answered: set[str] = set()
        with anyio.fail_after(TASK_DEADLINE_S):
            while True:
                state = await self.get(ctx.session, task.task_id)
                if state.status == "completed" and state.result is not None:
                    return state.result
                if state.status in ("completed", "failed", "cancelled"):
                    why = state.error or state.status_message
                    raise RuntimeError(f"task {task.task_id} {state.status}: {why}")
                pending = {k: v for k, v in (state.input_requests or {}).items() if k not in answered}
                if state.status == "input_required" and pending:
                    self.trace.keys += [key for key in pending if key not in self.trace.keys]
                    requests = INPUT_REQUESTS.validate_python(pending, by_name=False)
                    responses = await answer_all(ctx.session, requests)
                    update = UpdateTask(params=TaskParams(task_id=task.task_id, input_responses=responses))
                    await ctx.session.send_request(update, types.EmptyResult)
                    answered |= pending.keys()
                    continue
                await anyio.sleep(min(state.poll_interval_ms or 200, 200) / 1000)


async def answer_all(session: ClientSession, requests: dict[str, types.InputRequest]) -> types.InputResponses:
    """Answer every request through the client's own callbacks, as its input-required driver does."""
    responses: types.InputResponses = {}
    for key, request in requests.items():
        meta = request.params.meta if request.params else None
        response = await session.dispatch_input_request(
            ClientRequestContext(session=session, request_id=key, meta=meta), request
        )
        if isinstance(response, types.ErrorData):
            raise RuntimeError(f"the client refused input request {key!r}: {response.message}")
        responses[key] = response
    return responses


def first_text(result: types.CallToolResult | None) -> str | None:
    blocks = result.content if result is not None else []
    return next((block.text for block in blocks if isinstance(block, types.TextContent)), None)


async def drive(url: str) -> list[dict[str, Any]]:
    ext = TasksExtension()

    async def on_elicit(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        if not isinstance(params, types.ElicitRequestFormParams):
            raise RuntimeError(f"unexpected elicitation: {params!r}")
        ext.trace.asked.append(params.message)
        properties = sorted((params.requested_schema or {}).get("properties", {}).keys())
        return types.ElicitResult.model_validate(answer_for(SCENARIO, params.message, properties))

    def line(tool: str, text: str | None) -> dict[str, Any]:
        t = ext.trace
        return {"tool": tool, "text": text, "taskId": t.task_id, "keys": t.keys, "status": t.status,
                "asked": t.asked}

    out: list[dict[str, Any]] = []
    # Passing the callback declares elicitation; `extensions` advertises the tasks extension.
    async with Client(url, mode=PROTOCOL, elicitation_callback=on_elicit, extensions=[ext]) as client:
        if client.protocol_version != PROTOCOL:
            raise RuntimeError(f"negotiated {client.protocol_version}, not {PROTOCOL}")
        for name, arguments in CALLS:
            ext.trace = Trace()
            result = await client.call_tool(name, arguments)  # runs MRTR rounds, then the claim's resolve
            if result.is_error or ext.trace.task_id is None:
                raise RuntimeError(f"{name}: not a completed task: {result!r} ({ext.trace})")
            out.append(line(name, first_text(result)))

        # Cancel: take the raw CreateTaskResult (no resolve), cancel it, poll until cancelled.
        ext.trace = Trace()
        args = {"seconds": 60, "label": "py-cancel"}
        task = await client.session.call_tool("slow_compute", args, allow_claimed=True)
        if not isinstance(task, CreateTaskResult):
            raise RuntimeError(f"slow_compute: expected a task, got {task!r}")
        ext.start(task)
        await client.session.send_request(CancelTask(params=TaskParams(task_id=task.task_id)), types.EmptyResult)
        with anyio.fail_after(CANCEL_DEADLINE_S):
            while (state := await ext.get(client.session, task.task_id)).status != "cancelled":
                if state.status in ("completed", "failed"):
                    raise RuntimeError(f"slow_compute: the task {state.status} instead of being cancelled")
                await anyio.sleep(0.1)
        out.append(line("slow_compute", first_text(state.result)))
    return out


async def bounded(url: str) -> list[dict[str, Any]]:
    with anyio.fail_after(60):
        return await drive(url)


def fail(message: str) -> None:
    sys.stderr.write(f"drive_task.py: {message}\n")
    sys.exit(1)


def main() -> None:
    if len(sys.argv) != 2:
        fail("usage: python drive_task.py URL")
    url = sys.argv[1]
    if urlsplit(url).hostname != "127.0.0.1":
        fail(f"refusing a non-loopback URL: {url}")
    try:
        lines = anyio.run(bounded, url)
    except BaseException:  # noqa: BLE001 - any failure, including exception groups, exits non-zero
        fail(traceback.format_exc())
    # One line per call to read, then all of them on the last line, which the Rust test reads.
    sys.stdout.write("".join(json.dumps(entry) + "\n" for entry in lines))
    sys.stdout.write(json.dumps({"calls": lines}) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
