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

/// One root the client exposes: a `file://` URI and an optional name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A human-readable name, if the client gave one.
    #[serde(default)]
    pub name: Option<String>,
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
        ListRootsResult::deserialize(response)
            .map(|result| result.roots)
            .map_err(|e| format!("not a ListRootsResult: {e}"))
    }

    fn keep(&self, _: &mut Vec<u8>) -> Option<crate::question::Kept> {
        crate::question::kept_as(|_, _| ClientRoots(()).into_input_request())
    }
}
