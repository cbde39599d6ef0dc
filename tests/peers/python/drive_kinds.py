"""Answers every kind of question with the official Python SDK (`mcp==2.3.0`) over Streamable
HTTP, on protocol 2026-07-28: form and URL elicitation, sampling and roots, through
`call_tool`, `get_prompt` and `read_resource`, each running its input-required rounds itself.

    python drive_kinds.py URL

The server is `tests/spec_audit.rs`'s: tool `all_kinds`, prompt `topic`, resource
`audit://topic`. Prints one JSON line on stdout:
    {"client": "python", "protocolVersion": "2026-07-28",
     "asked": [{"kind", ...what the question carried}],
     "tool": CallToolResult, "prompt": GetPromptResult, "resource": ReadResourceResult}
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

PROTOCOL = "2026-07-28"


def fail(message: str) -> None:
    sys.stderr.write(f"drive_kinds.py: {message}\n")
    sys.exit(1)


async def drive(url: str) -> dict[str, Any]:
    asked: list[dict[str, Any]] = []

    async def on_elicit(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        if isinstance(params, types.ElicitRequestURLParams):
            asked.append({"kind": "url", "key": str(context.request_id), "message": params.message, "url": params.url})
            # Accept means only that the user agreed to open the page: no content.
            return types.ElicitResult(action="accept")
        properties = sorted((params.requested_schema or {}).get("properties", {}).keys())
        asked.append({"kind": "form", "key": str(context.request_id), "message": params.message, "properties": properties})
        return types.ElicitResult(action="accept", content={"name": "Ada"})

    async def on_sample(context: ClientRequestContext, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        texts = [message.content.text for message in params.messages if isinstance(message.content, types.TextContent)]
        asked.append(
            {
                "kind": "sampling",
                "key": str(context.request_id),
                "texts": texts,
                "maxTokens": params.max_tokens,
                "systemPrompt": params.system_prompt,
            }
        )
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="Paris"),
            model="py-model",
            stop_reason="endTurn",
        )

    async def on_roots(context: ClientRequestContext) -> types.ListRootsResult:
        asked.append({"kind": "roots", "key": str(context.request_id)})
        return types.ListRootsResult(roots=[types.Root(uri="file:///home/ada", name="home")])

    async with Client(
        url,
        mode=PROTOCOL,
        elicitation_callback=on_elicit,
        sampling_callback=on_sample,
        list_roots_callback=on_roots,
        read_timeout_seconds=20,
    ) as client:
        if client.protocol_version != PROTOCOL:
            raise RuntimeError(f"negotiated {client.protocol_version}, not {PROTOCOL}")
        tool = await client.call_tool("all_kinds", {})
        prompt = await client.get_prompt("topic")
        resource = await client.read_resource("audit://topic")
        protocol_version = client.protocol_version

    def dump(model: Any) -> Any:
        return model.model_dump(mode="json", by_alias=True, exclude_none=True)

    return {
        "client": "python",
        "protocolVersion": protocol_version,
        "asked": asked,
        "tool": dump(tool),
        "prompt": dump(prompt),
        "resource": dump(resource),
    }


async def bounded(url: str) -> dict[str, Any]:
    with anyio.fail_after(30):
        return await drive(url)


def main() -> None:
    if len(sys.argv) != 2:
        fail("usage: python drive_kinds.py URL")
    url = sys.argv[1]
    if urlsplit(url).hostname != "127.0.0.1":
        fail(f"refusing a non-loopback URL: {url}")
    try:
        output = anyio.run(bounded, url)
    except BaseException:  # noqa: BLE001 - any failure, including exception groups, exits non-zero
        fail(traceback.format_exc())
    sys.stdout.write(json.dumps(output) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
