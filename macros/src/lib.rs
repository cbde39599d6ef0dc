//! Procedural macros for [`mrtr`](https://docs.rs/mrtr). Use them through the `mrtr` crate.
//!
//! `#[mrtr_tool]` runs a four-stage pipeline, one file each under `tool/`: `parse` reads the
//! attribute and the function, `analyze` numbers the ask points and checks where they stand,
//! `lower` rewrites the body into resumable code, and `emit` writes the final method.

use proc_macro::TokenStream;

mod diagnostics;
mod form;
mod tool;

#[cfg(test)]
mod snapshots;

/// Turns an `async fn` tool with `ask!` points into a resumable MCP tool.
///
/// Put it above rmcp's `#[tool(...)]` inside a `#[tool_router]` impl. Arguments, all optional:
/// `version = ".."` (keeps states valid across edits), `replay = "allow"` (a read-only tool's
/// states may open more than once), `task = "optional" | "required"` (the tool may run as a
/// task of the tasks extension). See the `mrtr` crate.
#[proc_macro_attribute]
pub fn mrtr_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(tool::Kind::Tool, attr.into(), item.into()).into()
}

/// The same machine for `prompts/get`: put it above rmcp's `#[prompt(...)]` inside a
/// `#[prompt_router]` impl, on a method returning `Result<GetPromptResult, ErrorData>`, and
/// route `ServerHandler::get_prompt` (which returns `Result<GetPromptResponse, ErrorData>`)
/// through `mrtr::get_prompt`. The crate README's "Prompts and resources" has a whole server.
#[proc_macro_attribute]
pub fn mrtr_prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(tool::Kind::Prompt, attr.into(), item.into()).into()
}

/// The same machine for `resources/read`: on an `async fn(&self, request:
/// ReadResourceRequestParams, context: RequestContext<RoleServer>) -> Result<ReadResourceResult,
/// ErrorData>` that your `ServerHandler::read_resource` calls. The method then returns
/// `Result<ReadResourceResponse, ErrorData>` (the result, or an `InputRequiredResult`), which is
/// what `read_resource` returns. The crate README's "Prompts and resources" has a whole server.
#[proc_macro_attribute]
pub fn mrtr_resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(tool::Kind::Resource, attr.into(), item.into()).into()
}

/// Checks at compile time that a struct is a flat elicitation form, or makes a unit-only enum a
/// form choice.
#[proc_macro_derive(Form)]
pub fn derive_form(item: TokenStream) -> TokenStream {
    form::derive(item.into()).into()
}
