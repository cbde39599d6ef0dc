//! A client of the tasks extension on the wire: JSON-RPC over stateless HTTP, with the
//! headers and `_meta` a 2026-07-28 client sends, so tests see exactly what the server
//! answers.

use std::time::Duration;

use serde_json::{Value, json};

/// A client at `url` that declares `capabilities` on every request, as caller `user` (sent as
/// `x-user`, for servers that tell callers apart).
#[derive(Clone)]
pub struct TaskClient {
    pub url: String,
    pub user: String,
    pub capabilities: Value,
    http: reqwest::Client,
}

/// What a tasks client declares: form elicitation and the tasks extension.
pub fn tasks_and_elicitation() -> Value {
    json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
}

impl TaskClient {
    pub fn new(url: &str, capabilities: Value) -> Self {
        Self {
            url: url.to_owned(),
            user: String::new(),
            capabilities,
            http: reqwest::Client::new(),
        }
    }

    /// The same client, calling as `user`.
    pub fn as_user(&self, user: &str) -> Self {
        Self {
            user: user.to_owned(),
            ..self.clone()
        }
    }

    /// The JSON-RPC response (`result` or `error`) to `method` with `params`.
    pub async fn request(&self, method: &str, mut params: Value) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": self.capabilities,
        });
        let name = params
            .get("name")
            .or_else(|| params.get("taskId"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method)
            .header("x-user", &self.user)
            .body(body.to_string());
        if !name.is_empty() {
            request = request.header("mcp-name", name);
        }
        let response = request.send().await.expect("the server answers");
        let text = response.text().await.expect("a response body");
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"))
    }

    /// `tools/call`: the `result`, or the whole response if it is an error.
    pub async fn call(&self, tool: &str, arguments: Value) -> Value {
        unwrap(
            self.request("tools/call", json!({"name": tool, "arguments": arguments}))
                .await,
        )
    }

    /// `tools/call` of a task tool: the new task's id. Panics unless it made a task.
    pub async fn start(&self, tool: &str, arguments: Value) -> String {
        let created = self.call(tool, arguments).await;
        assert_eq!(created["resultType"], "task", "{created}");
        created["taskId"].as_str().expect("a task id").to_owned()
    }

    /// A retry of `tools/call` with answers and the state of the round before.
    pub async fn retry(
        &self,
        tool: &str,
        arguments: Value,
        answers: Value,
        state: &Value,
    ) -> Value {
        let mut params = json!({"name": tool, "arguments": arguments, "inputResponses": answers});
        if !state.is_null() {
            params["requestState"] = state.clone();
        }
        unwrap(self.request("tools/call", params).await)
    }

    /// `tasks/get`.
    pub async fn get(&self, task: &str) -> Value {
        unwrap(self.request("tasks/get", json!({"taskId": task})).await)
    }

    /// `tasks/update`.
    pub async fn update(&self, task: &str, answers: Value) -> Value {
        let params = json!({"taskId": task, "inputResponses": answers});
        unwrap(self.request("tasks/update", params).await)
    }

    /// `tasks/update` answering yes to the task's question `1.confirm`.
    pub async fn confirm(&self, task: &str) -> Value {
        let yes = json!({"1.confirm": accept(json!({"confirm": true}))});
        self.update(task, yes).await
    }

    /// `tasks/cancel`.
    pub async fn cancel(&self, task: &str) -> Value {
        unwrap(self.request("tasks/cancel", json!({"taskId": task})).await)
    }

    /// Polls `tasks/get` until the task is in `status` (or ended), for at most 10 s.
    pub async fn wait_for(&self, task: &str, status: &str) -> Value {
        self.wait_for_within(task, status, Duration::from_secs(10))
            .await
    }

    /// Polls `tasks/get` until the task is in `status` (or ended), for at most `limit`.
    pub async fn wait_for_within(&self, task: &str, status: &str, limit: Duration) -> Value {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let got = self.get(task).await;
            let now = got["status"].as_str().unwrap_or_default();
            if now == status || matches!(now, "completed" | "failed" | "cancelled") {
                return got;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "task {task} never became {status}: {got}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The `result` of a response, or the response itself when it is an error.
fn unwrap(response: Value) -> Value {
    match response.get("result") {
        Some(result) => result.clone(),
        None => response,
    }
}

/// An accepted form answer.
pub fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// The first text block of a tool result.
pub fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}
