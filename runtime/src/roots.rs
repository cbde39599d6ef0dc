//! `roots/list`: ask the client which filesystem roots it exposes.
//!
//! Roots are deprecated by SEP-2577 but still part of MCP 2026-07-28; rmcp marks its types
//! deprecated, so mrtr answers with its own [`Root`].
#![allow(deprecated)]

use rmcp::{
    ErrorData,
    model::{ClientCapabilities, InputRequest, ListRootsRequest, RootsCapabilities},
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Question;

/// `ask!(where_ = roots())` answers the client's roots, typed.
pub fn roots() -> ClientRoots {
    ClientRoots(())
}

/// One root the client exposes: a `file://` URI and an optional name. MCP may add fields:
/// build one with [`Root::new`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A human-readable name, if the client gave one.
    #[serde(default)]
    pub name: Option<String>,
}

impl Root {
    /// A root at `uri` with no name, as a test answers a `roots()` question.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: None,
        }
    }

    /// This root, named `name`.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}

/// A `roots/list` question; see [`roots`].
#[must_use = "a question does nothing until it is asked: `ask!(key = ..)`"]
#[derive(Debug, Clone, Copy)]
pub struct ClientRoots(());

impl Question for ClientRoots {
    type Answer = Vec<Root>;

    fn missing_capability(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities> {
        declared.roots.is_none().then(|| {
            let mut needed = ClientCapabilities::default();
            needed.roots = Some(RootsCapabilities::default());
            needed
        })
    }

    fn into_input_request(self) -> Result<Option<InputRequest>, ErrorData> {
        Ok(Some(InputRequest::ListRoots(ListRootsRequest::default())))
    }

    fn read_answer(_: &str, response: &Value) -> Result<Vec<Root>, String> {
        #[derive(Deserialize)]
        struct ListRootsResult {
            roots: Vec<Root>,
        }
        let roots = ListRootsResult::deserialize(response)
            .map(|result| result.roots)
            .map_err(|e| format!("{}{e}", crate::log::NOT_A_LIST_ROOTS_RESULT))?;
        // The spec's `Root.uri` "MUST be a file:// URI". Others (`http:`, a `vscode-vfs:`
        // workspace, text with control characters) are left out rather than asked about again:
        // `roots/list` is not a question a person answers, and its client would send the same.
        let all = roots.len();
        let roots: Vec<Root> = roots
            .into_iter()
            .filter(|root| is_file_uri(&root.uri))
            .collect();
        if roots.len() < all {
            tracing::debug!(
                left_out = all - roots.len(),
                "mrtr: roots that are not file:// URIs were left out"
            );
        }
        Ok(roots)
    }

    fn keep(&self, _: &mut Vec<u8>) -> Option<crate::question::Kept> {
        crate::question::kept_as(|_, _| ClientRoots(()).into_input_request())
    }
}

/// A `file://` URI, without the control characters no URI has.
fn is_file_uri(uri: &str) -> bool {
    uri.get(..7)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file://"))
        && !uri.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn roots_read_back_only_as_file_uris_and_leave_others_out() {
        let read = |roots: Value| ClientRoots::read_answer("where", &json!({ "roots": roots }));
        assert_eq!(
            read(json!([{"uri": "file:///home/ada", "name": "home"}, {"uri": "FILE:///tmp"}])),
            Ok(vec![
                Root::new("file:///home/ada").named("home"),
                Root::new("FILE:///tmp"),
            ])
        );
        assert_eq!(read(json!([])), Ok(Vec::new()));
        for uri in [
            "http://evil.example/x",
            "javascript:alert(1)",
            "",
            "not a uri at all",
            "file:///a\nb",
            "file:///a\u{0}",
        ] {
            let answer = read(json!([{"uri": "file:///fine"}, {"uri": uri}]));
            assert_eq!(answer, Ok(vec![Root::new("file:///fine")]), "{uri:?}");
        }
    }
}
