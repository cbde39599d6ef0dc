//! # mrtr: resumable MCP tools
//!
//! MCP 2026-07-28 answers a `tools/call` that needs more input with an `InputRequiredResult`:
//! questions for the client plus an opaque `requestState`; the client retries with the answers.
//! `mrtr` lets you write that tool as one plain `async fn` with `ask!` points. The
//! [`mrtr_tool`] attribute turns it into a resumable state machine whose progress travels,
//! sealed, inside `requestState`, so any server instance can take the retry and the code
//! between two asks runs once per call: while the tool is single-use (the default), no instance
//! dies mid-round (its round then runs again after its lease), and the client continues with
//! the state it was given. See [`replay`] for the details.
//!
//! ```
//! use mrtr::{Form, ask, elicit, mrtr_tool};
//! use rmcp::{
//!     ServerHandler,
//!     handler::server::{router::tool::ToolRouter, wrapper::Parameters},
//!     model::{CallToolResult, ContentBlock},
//!     tool, tool_handler, tool_router,
//! };
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct SignupArgs {
//!     team: String,
//! }
//!
//! #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Form)]
//! struct Profile {
//!     name: String,
//! }
//!
//! #[derive(Clone)]
//! struct Wizard {
//!     tool_router: ToolRouter<Self>,
//! }
//!
//! #[tool_router]
//! impl Wizard {
//!     #[mrtr_tool]
//!     #[tool(description = "Sign up to a team")]
//!     async fn signup(&self, Parameters(args): Parameters<SignupArgs>) -> Result<CallToolResult, String> {
//!         let profile = ask!(profile = elicit::<Profile>(format!("Welcome to {}!", args.team)))
//!             .accepted()
//!             .map_err(|refused| format!("Signup cancelled at {}", refused.key))?;
//!         Ok(CallToolResult::success(vec![ContentBlock::text(format!("Hello {}", profile.name))]))
//!     }
//! }
//!
//! // Seal with the keys in MRTR_KEYS (or a per-process key, with a warning).
//! impl mrtr::MrtrServer for Wizard {}
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for Wizard {}
//! ```
//!
//! Serve it as any rmcp server, wrapped in [`Bridged`] so that clients of 2025-06-18 and
//! 2025-11-25 get the same tools on a session (and 2026-07-28 clients tasks):
//! `mrtr::Bridged::new(wizard).serve(rmcp::transport::stdio())`, or a `StreamableHttpService`
//! whose factory makes a `Bridged`. Prompts and resources ask the same way: [`mrtr_prompt`]
//! with [`get_prompt`], and [`mrtr_resource`]. `mrtr::testing` (the `testing` feature) runs a
//! call through its rounds in a test. The crate README has the `Cargo.toml`, a whole `main.rs`
//! and each of these as code that compiles.
//!
//! Every `requestState` opens once: a duplicate of a request gets the first response again and
//! runs none of the tool's code, and no flow outlives its deadline or round cap. See [`replay`]
//! for the semantics, the stores ([`replay::MemoryStore`], or `RedisStore` for a fleet), and
//! what happens when an instance dies.
//!
//! A long-running tool may run as a task of the `io.modelcontextprotocol/tasks` extension:
//! `#[mrtr_tool(task = "optional")]`, served through [`Bridged`]. Its `ask!` points then reach
//! the client through `tasks/get` and `tasks/update`. See [`task`].
//!
//! See the crate README for the full guide: attribute order, what may be held across an ask,
//! the key format of `MRTR_KEYS`, and the security model of `requestState`.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets `#[derive(Form)]` and `#[mrtr_tool]` expand inside this crate's own tests.
extern crate self as mrtr;

#[macro_use]
mod doc_links;

mod answer_fits;
#[cfg(test)]
mod api_traits;
mod args_digest;
mod bridge;
mod capabilities;
mod channel;
mod checkpoint;
mod elicit;
mod elicit_url;
mod engine;
mod envelope;
mod for_borrowed;
mod for_items;
mod form;
mod form_schema;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals;
mod key_check;
mod log;
mod machine;
mod malformed;
mod outcome;
mod question;
pub mod replay;
mod roots;
mod round;
mod sample;
mod saved;
mod server;
pub mod task;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
mod type_witness;

pub use bridge::Bridged;
pub use capabilities::Capabilities;
pub use checkpoint::{Checkpoint, checkpoint};
pub use elicit::{Elicit, Elicited, Refusal, Refused, elicit};
pub use elicit_url::{ElicitUrl, UrlElicited, elicit_url};
#[allow(deprecated)]
pub use engine::KeyError;
pub use engine::{
    AUDIENCE_ENV, Clock, ConfigError, Engine, EngineBuilder, KEYS_ENV, REDIS_URL_ENV,
    REPLAY_CAPACITY_ENV,
};
pub use form::{Form, FormChoice, FormField, FormParts};
pub use mrtr_macros::{Form, mrtr_prompt, mrtr_resource, mrtr_tool};
pub use outcome::{IntoReadResourceResult, Outcome};
pub use question::Question;
pub use roots::{ClientRoots, Root, roots};
pub use round::get_prompt;
pub use sample::{Sample, Sampled, sample};
pub use server::MrtrServer;
pub use task::start_task;

/// Marks a point where the tool asks the client for input.
///
/// `ask!(key = question)` or `ask!(question)` evaluates to the typed answer. Outside a
/// function marked `#[mrtr_tool]` it is a compile error: the attribute is what rewrites it.
#[macro_export]
macro_rules! ask {
    // What `#[mrtr_tool]` leaves in place of each ask: the lowered call. Going through this
    // macro keeps the user's `use mrtr::ask;` meaningful.
    (@lowered $lowered:expr) => {
        $lowered
    };
    // What it leaves next to its own errors, so the rest still type-checks.
    (@placeholder $($question:tt)*) => {
        $crate::__private::placeholder_answer!($($question)*)
    };
    ($($question:tt)*) => {
        ::core::compile_error!(
            "`ask!` only works in the body of an `async fn` marked `#[mrtr_tool]` (or \
             `#[mrtr_prompt]`, `#[mrtr_resource]`): on a tool, add `#[mrtr_tool]` above its \
             `#[tool(...)]`; in a helper the tool calls, ask in the tool instead and pass the \
             answer to the helper"
        )
    };
}

/// Items the code generated by `#[mrtr_tool]` and `#[derive(Form)]` refers to. Not a public API.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
