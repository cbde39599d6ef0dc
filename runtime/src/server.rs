//! How a server hands its [`Engine`] to its `#[mrtr_tool]` methods.

use crate::Engine;

/// Implemented by a server type whose `#[tool_router]` impl has `#[mrtr_tool]` methods.
///
/// The default uses [`Engine::global`], configured from the `MRTR_KEYS` environment variable:
///
/// ```
/// # struct MyServer;
/// impl mrtr::MrtrServer for MyServer {}
/// ```
///
/// Call [`Engine::try_global`] at startup with this default, so that a malformed `MRTR_KEYS`
/// stops the server rather than failing each call. Override [`MrtrServer::mrtr_engine`] to use
/// your own keys, TTL, clock or principal.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not say which mrtr engine seals its tools' state",
    label = "this server has `#[mrtr_tool]` methods",
    note = "add `impl mrtr::MrtrServer for {Self} {{}}` to use the engine configured by the \
            MRTR_KEYS environment variable, or override `mrtr_engine` to return your own"
)]
pub trait MrtrServer {
    /// The engine that seals and opens this server's `requestState`.
    fn mrtr_engine(&self) -> &Engine {
        Engine::global()
    }
}

/// The engine of the server `#[mrtr_tool]` code runs on; a missing [`MrtrServer`] impl is
/// reported here, once, on the tool.
#[doc(hidden)]
pub fn engine_of<S: MrtrServer + ?Sized>(server: &S) -> &Engine {
    server.mrtr_engine()
}
