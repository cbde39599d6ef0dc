"""The scripted answer to a question, shared by the Python drivers: by the question's
message first, else by its form's property names. An answer's `reply` answers every time;
its `replies` answer one each, in order, for a question asked again."""

from typing import Any


def reply_of(answer: dict[str, Any], message: str) -> dict[str, Any]:
    if "replies" not in answer:
        return answer["reply"]
    if not answer["replies"]:
        raise RuntimeError(f"no scripted answer left for {message!r}, asked once more")
    return answer["replies"].pop(0)


def answer_for(scenario: dict[str, Any], message: str, properties: list[str]) -> dict[str, Any]:
    for answer in scenario["answers"]:
        if answer.get("message") == message:
            return reply_of(answer, message)
    for answer in scenario["answers"]:
        if "message" not in answer and sorted(answer.get("properties", [])) == properties:
            return reply_of(answer, message)
    raise RuntimeError(f"no scripted answer for {message!r} (properties {properties})")
