"""The scripted answer to a question, shared by the Python drivers: by the question's
message first, else by its form's property names."""

from typing import Any


def answer_for(scenario: dict[str, Any], message: str, properties: list[str]) -> dict[str, Any]:
    for answer in scenario["answers"]:
        if answer.get("message") == message:
            return answer["reply"]
    for answer in scenario["answers"]:
        if "message" not in answer and sorted(answer.get("properties", [])) == properties:
            return answer["reply"]
    raise RuntimeError(f"no scripted answer for {message!r} (properties {properties})")
