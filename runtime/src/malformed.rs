//! A request for a method of MCP whose params do not parse. rmcp hands it on as a custom
//! request, which servers answer `-32601` ("method not found"); the bridge answers `-32602`,
//! as the protocol asks, and logs why.

use rmcp::model::{
    CallToolRequestParams, CancelTaskParams, CustomRequest, ErrorData, GetPromptRequestParams,
    GetTaskParams, ReadResourceRequestParams, UpdateTaskParams,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::log::{Escaped, redacted};

/// The other methods of MCP 2026-07-28 whose params rmcp reads into a type of its own. The
/// methods it removed (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`, ..) stay
/// unknown to a native client, `-32601`, whatever their params.
const OTHER_METHODS: &[&str] = &[
    "server/discover",
    "completion/complete",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "subscriptions/listen",
    "tools/list",
];

/// `-32602` for a request of one of MCP's own methods that reached the server as a custom
/// request, because its params did not parse; `None` for a method of the server's own.
pub(crate) fn refusal(request: &CustomRequest) -> Option<ErrorData> {
    let method = request.method.as_str();
    let params = || request.params.clone().unwrap_or(Value::Null);
    let reason = match method {
        "tools/call" => why::<CallToolRequestParams>(params()),
        "prompts/get" => why::<GetPromptRequestParams>(params()),
        "resources/read" => why::<ReadResourceRequestParams>(params()),
        "tasks/get" => why::<GetTaskParams>(params()),
        "tasks/update" => why::<UpdateTaskParams>(params()),
        "tasks/cancel" => why::<CancelTaskParams>(params()),
        other if OTHER_METHODS.contains(&other) => None,
        _ => return None,
    };
    let reason = reason.unwrap_or_else(|| "they do not have the method's shape".to_owned());
    tracing::info!(
        method = %Escaped(method),
        reason = %Escaped(&reason),
        "mrtr: refused a request whose params do not parse"
    );
    Some(ErrorData::invalid_params(
        format!("the params of `{method}` are not valid"),
        None,
    ))
}

/// Where the params fail to parse, and how, without the values the client sent: an answer may
/// be a secret.
fn why<T: DeserializeOwned>(params: Value) -> Option<String> {
    let error = serde_path_to_error::deserialize::<_, T>(params).err()?;
    let path = error.path().to_string();
    let message = redacted(&error.into_inner());
    Some(format!("at `{path}`: {message}"))
}

#[cfg(test)]
mod tests {
    use rmcp::model::CustomRequest;
    use serde_json::json;

    use super::*;

    fn request(method: &str, params: Value) -> CustomRequest {
        CustomRequest::new(method, Some(params))
    }

    #[test]
    fn a_method_of_mcp_whose_params_do_not_parse_is_invalid_params_and_logged_without_values() {
        let secret = "hunter2";
        let cases = [
            ("tools/call", json!({"name": "t", "requestState": 12345})),
            (
                "tools/call",
                json!({"name": "t", "inputResponses": [secret]}),
            ),
            ("tools/call", json!({"arguments": {"a": secret}})),
            ("prompts/get", json!({"name": 7})),
            ("tasks/get", json!({"taskId": 5})),
            ("resources/templates/list", json!({"cursor": 5})),
        ];
        for (method, params) in cases {
            let mut refusal = None;
            let logged =
                crate::log::captured(|| refusal = super::refusal(&request(method, params.clone())));
            let refusal = refusal.unwrap_or_else(|| panic!("{method} {params} was not refused"));
            assert_eq!(refusal.code, rmcp::model::ErrorCode::INVALID_PARAMS);
            assert_eq!(
                refusal.message,
                format!("the params of `{method}` are not valid")
            );
            assert!(logged.contains("params do not parse"), "{logged}");
            assert!(!logged.contains(secret), "{logged}");
        }
        let logged = crate::log::captured(|| {
            super::refusal(&request(
                "tools/call",
                json!({"name": "t", "requestState": 12345}),
            ));
        });
        assert!(
            logged.contains("at `requestState`: invalid type, expected a string"),
            "{logged}"
        );
        assert!(!logged.contains("12345"), "{logged}");
    }

    #[test]
    fn a_method_of_the_server_s_own_or_a_removed_one_is_left_to_it() {
        assert!(refusal(&request("acme/report", json!({"x": 1}))).is_none());
        assert!(refusal(&request("initialize", json!({"x": 1}))).is_none());
        assert!(refusal(&request("logging/setLevel", json!({"level": 5}))).is_none());
    }
}
