//! The official Python SDK (`mcp` 2.3.0) drives task tools with input, over loopback
//! Streamable HTTP on 2026-07-28 (`tests/peers/python/drive_task.py`).
//!
//! The SDK has no tasks support of its own; the script uses its extension API: a
//! `ClientExtension` claims `resultType: "task"`, and its resolver polls `tasks/get`, answers
//! `inputRequests` through the client's own elicitation callback and sends `tasks/update`.
//! The TypeScript SDK v2 client cannot take part: it rejects `resultType: "task"` on every
//! request (see README.md, "Tasks").

use mrtr::Engine;
use mrtr_examples::conformance::Conformance;
use mrtr_tests::{loopback::Served, peers};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_drives_task_tools_with_input() {
    let python = peers::python();
    let engine = Engine::builder()
        .key(1, mrtr_tests::keys::test_key(31))
        .build()
        .expect("a fixed key is valid");
    let served = Served::start(Conformance::new(engine))
        .await
        .expect("the conformance server binds 127.0.0.1:0");
    let script = peers::dir().join("python/drive_task.py");
    let output = peers::run_driver(&python, &script, &[&served.url])
        .await
        .expect("the Python driver succeeds");
    let calls: Vec<Value> = serde_json::from_value(output["calls"].clone()).expect("calls");
    let by_tool = |tool: &str| {
        calls
            .iter()
            .find(|call| call["tool"] == tool)
            .unwrap_or_else(|| panic!("no {tool} in {output}"))
            .clone()
    };

    let deleted = by_tool("confirm_delete");
    assert_eq!(deleted["text"], "deleted 'py.txt'", "{deleted}");
    assert_eq!(deleted["status"], "completed");
    assert_eq!(deleted["keys"], json!(["1.confirm"]));
    assert_eq!(deleted["asked"], json!(["Delete 'py.txt'?"]));

    let both = by_tool("multi_input");
    assert_eq!(both["text"], "name=\"Grace\" confirmed=true", "{both}");
    assert_eq!(both["keys"], json!(["1.confirm", "1.name"]));

    // Its question comes in a round of `tools/call`, before the task exists.
    let composed = by_tool("test_tool_with_task");
    assert_eq!(
        composed["text"], "Hello, Alice! (computed in task)",
        "{composed}"
    );
    assert_eq!(composed["keys"], json!([]));
    assert_eq!(composed["asked"], json!(["What is your name?"]));
    assert_eq!(composed["status"], "completed");

    let cancelled = by_tool("slow_compute");
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    assert!(cancelled["taskId"].is_string());
}
