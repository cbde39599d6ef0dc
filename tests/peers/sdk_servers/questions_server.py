"""The `questions` benchmark tool (mrtr's `examples/src/questions.rs`) written with the official
Python SDK, `mcp==2.3.0`, the way its documentation teaches.

    python questions_server.py --port N [--style input-required|resolve]

Serves stateless Streamable HTTP on http://127.0.0.1:N/mcp. Prints `ready <url>` on stdout once
listening; exits on SIGTERM or SIGINT. Nothing is logged per request.

`questions` asks N questions (1 to 100), one per round, and joins the answers. Two styles, both
from the SDK's docs (see README.md):

- `input-required` (default): the tool body returns an `InputRequiredResult` with the next question
  (key `qI`) and reads the retry's answer from `ctx.input_responses` and the answers so far from
  `ctx.request_state`, the form the docs give for an `@mcp.tool()` "when the dependency form doesn't
  fit". MCPServer seals that `request_state` (AES-256-GCM under a process key, bound to the tool,
  its arguments and a TTL) and verifies it on every retry.
- `resolve`: the dependency form, `Annotated[T, Resolve(fn)]` with resolvers returning
  `Elicit(...)`. A resolver asks one fixed question and the SDK reads the resolver graph when the
  tool is registered, so a count chosen per call takes a chain of 100 resolvers (key
  `__main__:qI`) and a tool with 100 resolved parameters; the SDK re-runs the chain each round and
  carries every recorded answer in its own sealed state.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import signal
from typing import Annotated, Any

import uvicorn
from pydantic import BaseModel, Field, ValidationError

from mcp.server import MCPServer
from mcp.server.mcpserver import AcceptedElicitation, Context, Elicit, ElicitationResult, Resolve
from mcp.types import (
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    TextContent,
)

MAX_QUESTIONS = 100

# Every question is this one-field form.
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "description": "Your answer."}},
    "required": ["answer"],
}


class Answer(BaseModel):
    answer: str = Field(description="Your answer.")


# WARNING: no per-request lines from the SDK (its INFO logs) or from uvicorn's access log.
mcp = MCPServer("questions", log_level="WARNING")


def question(number: int, total: int) -> ElicitRequest:
    return ElicitRequest(
        params=ElicitRequestFormParams(message=f"Question {number} of {total}", requested_schema=ANSWER_SCHEMA)
    )


def text(value: str, *, is_error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=value)], is_error=is_error)


# --style input-required


async def questions(questions: int, ctx: Context) -> CallToolResult | InputRequiredResult:
    if not 1 <= questions <= MAX_QUESTIONS:
        return text(f"questions must be 1 to {MAX_QUESTIONS}, not {questions}", is_error=True)
    # The answers so far: our own plaintext, sealed by the SDK on the way out, verified on the way in.
    answers: list[str] = json.loads(ctx.request_state) if ctx.request_state else []
    key = f"q{len(answers) + 1}"
    reply = (ctx.input_responses or {}).get(key)
    if isinstance(reply, ElicitResult):
        if reply.action != "accept":
            return text(f"Cancelled at {key}", is_error=True)
        try:
            answers.append(Answer.model_validate(reply.content).answer)
        except ValidationError:
            pass  # not an answer to this form: ask the same question again
    if len(answers) >= questions:
        return text(", ".join(answers))
    number = len(answers) + 1
    return InputRequiredResult(
        input_requests={f"q{number}": question(number, questions)},
        request_state=json.dumps(answers),
    )


# --style resolve


class Skipped:
    """What a question's resolver gives when it does not ask: past the count, or after a refusal."""


SKIPPED = Skipped()


def question_resolver(number: int, previous: Any | None) -> Any:
    """The resolver of question `number`: asks it once the question before is answered."""

    def ask_or_skip(questions: int) -> Skipped | Elicit[Answer]:
        if not 1 <= questions <= MAX_QUESTIONS or number > questions:
            return SKIPPED
        return Elicit(f"Question {number} of {questions}", Answer)

    if previous is None:

        async def ask(questions: int) -> Skipped | Elicit[Answer]:
            return ask_or_skip(questions)

    else:

        async def ask(questions: int, previous_outcome: Any) -> Skipped | Elicit[Answer]:
            if not isinstance(previous_outcome, AcceptedElicitation) or previous_outcome.data is SKIPPED:
                return SKIPPED  # the question before was skipped, declined or cancelled: ask no more
            return ask_or_skip(questions)

        # Depend on the previous question's outcome: one question per round, in order. (A real
        # object, not a string: `previous` is local, so the SDK could not evaluate the string.)
        ask.__annotations__ = {
            "questions": int,
            "previous_outcome": Annotated[ElicitationResult[Answer], Resolve(previous)],
            "return": Skipped | Elicit[Answer],
        }

    # The SDK keys a resolver's question by `module:qualname`; name each one after its question.
    ask.__name__ = ask.__qualname__ = f"q{number}"
    return ask


def questions_by_resolvers() -> Any:
    """The tool: `questions` plus one resolved parameter per possible question, a1..a100."""
    resolvers: list[Any] = []
    for number in range(1, MAX_QUESTIONS + 1):
        resolvers.append(question_resolver(number, resolvers[-1] if resolvers else None))

    async def questions(questions: int, **outcomes: ElicitationResult[Answer]) -> CallToolResult:
        if not 1 <= questions <= MAX_QUESTIONS:
            return text(f"questions must be 1 to {MAX_QUESTIONS}, not {questions}", is_error=True)
        answers: list[str] = []
        for number in range(1, questions + 1):
            outcome = outcomes[f"a{number}"]
            if not isinstance(outcome, AcceptedElicitation):
                resolver = resolvers[number - 1]
                return text(f"Cancelled at {resolver.__module__}:{resolver.__qualname__}", is_error=True)
            answers.append(outcome.data.answer)
        return text(", ".join(answers))

    parameters = [inspect.Parameter("questions", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=int)]
    hints: dict[str, Any] = {"questions": int, "return": CallToolResult}
    for number, resolver in enumerate(resolvers, 1):
        hints[f"a{number}"] = Annotated[ElicitationResult[Answer], Resolve(resolver)]
        parameters.append(
            inspect.Parameter(f"a{number}", inspect.Parameter.KEYWORD_ONLY, annotation=hints[f"a{number}"])
        )
    questions.__signature__ = inspect.Signature(parameters, return_annotation=CallToolResult)  # type: ignore[attr-defined]
    questions.__annotations__ = hints
    return questions


DESCRIPTION = "Asks `questions` questions (1 to 100), one per round, and joins the answers."


async def serve(port: int) -> None:
    # `mcp.run(transport="streamable-http", ...)` gives no hook once it listens, so host the same
    # app (`streamable_http_app`, the docs' "Add to an existing app") with uvicorn directly. A
    # 2026-07-28 request is sessionless whatever the flag; `stateless_http` covers the legacy leg.
    app = mcp.streamable_http_app(stateless_http=True)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    # uvicorn catches SIGTERM/SIGINT while serving, shuts down gracefully, then re-raises the signal
    # to the handler it found: make that one a no-op so the process then exits with status 0.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: None)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            await serving  # failed to start: raise its error
            raise SystemExit(1)
        await asyncio.sleep(0.01)
    print(f"ready http://127.0.0.1:{port}/mcp", flush=True)
    await serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--style", choices=["input-required", "resolve"], default="input-required")
    args = parser.parse_args()
    tool = questions if args.style == "input-required" else questions_by_resolvers()
    mcp.tool(name="questions", description=DESCRIPTION)(tool)
    asyncio.run(serve(args.port))


if __name__ == "__main__":
    main()
