//! The fixtures of the nine `tasks-*` scenarios (the `io.modelcontextprotocol/tasks`
//! extension, SEP-2663). Names, arguments and texts are the ones the scenarios spell out.
//!
//! A task tool is an ordinary `#[mrtr_tool]` with `task = "optional"` or `task = "required"`:
//! its `ask!` points become the task's `inputRequests`, answered with `tasks/update`. The
//! engine's task store and `mrtr::Bridged` do the rest.

use std::time::Duration;

use mrtr::{Form, ask, elicit, mrtr_tool, start_task};
use rmcp::{
    ErrorData,
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Conformance, input_required::Name};

/// Arguments of `greet`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GreetArgs {
    pub name: String,
}

/// Arguments of `slow_compute`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SlowComputeArgs {
    /// How long the computation takes (default 3; 0 or less finishes at once).
    pub seconds: Option<i64>,
    /// A name for the computation, repeated in the result.
    pub label: Option<String>,
}

/// Arguments of `confirm_delete`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ConfirmDeleteArgs {
    /// The file to delete (default `important.txt`).
    pub filename: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct Confirm {
    pub confirm: bool,
}

#[tool_router(router = task_tools, vis = "pub(super)")]
impl Conformance {
    /// A tool that never runs as a task, even for a client that supports tasks.
    #[tool(description = "Greets by name, at once")]
    async fn greet(&self, Parameters(args): Parameters<GreetArgs>) -> String {
        format!("Hello, {}!", args.name)
    }

    /// A task for a client that supports them, a plain call for others.
    #[mrtr_tool(task = "optional")]
    #[tool(description = "Computes for `seconds` seconds, as a task where the client supports it")]
    async fn slow_compute(&self, Parameters(args): Parameters<SlowComputeArgs>) -> String {
        let seconds = args.seconds.unwrap_or(3).max(0);
        let label = args.label.unwrap_or_else(|| "default".to_owned());
        tokio::time::sleep(Duration::from_secs(seconds.unsigned_abs())).await;
        format!("Computation \"{label}\" completed after {seconds} seconds. Result: 42.")
    }

    /// A tool error: the task completes, with `isError: true`.
    #[mrtr_tool(task = "required")]
    #[tool(description = "A task that ends in a tool error")]
    async fn failing_job(&self) -> CallToolResult {
        tokio::time::sleep(Duration::from_millis(200)).await;
        CallToolResult::error(vec![ContentBlock::text("the job failed")])
    }

    /// A JSON-RPC error: the task fails, with the error.
    #[mrtr_tool(task = "required")]
    #[tool(description = "A task that ends in a protocol error")]
    async fn protocol_error_job(&self) -> Result<CallToolResult, ErrorData> {
        tokio::time::sleep(Duration::from_millis(200)).await;
        Err(ErrorData::internal_error(
            "the job hit a protocol error",
            None,
        ))
    }

    /// One question inside the task.
    #[mrtr_tool(task = "required")]
    #[tool(description = "Asks before deleting a file, from inside a task")]
    async fn confirm_delete(&self, Parameters(args): Parameters<ConfirmDeleteArgs>) -> String {
        let filename = args.filename.unwrap_or_else(|| "important.txt".to_owned());
        let answer = ask!(confirm = elicit::<Confirm>(format!("Delete '{filename}'?")));
        match answer.accepted() {
            Ok(Confirm { confirm: true }) => format!("deleted '{filename}'"),
            _ => format!("kept '{filename}'"),
        }
    }

    /// Two questions at once inside the task; the client may answer them one at a time.
    #[mrtr_tool(task = "required")]
    #[tool(description = "Asks two questions at once, from inside a task")]
    async fn multi_input(&self) -> Result<String, String> {
        let (name, confirm) = ask!(
            name = elicit::<Name>("Enter your name:"),
            confirm = elicit::<Confirm>("Confirm action?"),
        );
        let name = name.accepted().map_err(|refused| refused.to_string())?.name;
        let confirmed = confirm.accepted().is_ok_and(|answer| answer.confirm);
        Ok(format!("name=\"{name}\" confirmed={confirmed}"))
    }

    /// A round of `tools/call` first, then the task.
    #[mrtr_tool(task = "required")]
    #[tool(description = "Asks the user's name (key user_name), then computes in a task")]
    async fn test_tool_with_task(&self) -> Result<String, String> {
        let name = ask!(user_name = elicit::<Name>("What is your name?"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .name;
        ask!(start_task());
        Ok(format!("Hello, {name}! (computed in task)"))
    }
}
