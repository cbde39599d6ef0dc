//! Servers built with mrtr, shared by the runnable examples and the end-to-end tests.
//!
//! - [`wizard`]: the `signup` tool, three questions in three rounds.
//! - [`serve`]: Streamable HTTP and stdio on rmcp, as every example serves them.
//! - [`demo`]: an in-process rmcp client that answers from a script and prints each round.

pub mod demo;
pub mod serve;
pub mod wizard;
