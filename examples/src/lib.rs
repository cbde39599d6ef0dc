//! Servers built with mrtr, shared by the runnable examples and the end-to-end tests.
//!
//! - [`wizard`]: the `signup` tool, three questions in three rounds, and `onboard`.
//! - [`questions`]: the wizard's benchmark tools, `wizard5` and `questions` (any number).
//! - [`provision`]: the wizard's long-running tool, a task for clients that support tasks.
//! - [`conformance`]: the fixtures of the official conformance suite's 2026-07-28 server
//!   scenarios.
//! - [`serve`]: Streamable HTTP and stdio on rmcp, as every example serves them.
//! - [`demo`]: an in-process rmcp client that answers from a script and prints each round.
//! - [`loadgen`]: drives whole flows of `signup` or `onboard` at a loopback server, checks each,
//!   and reports flows/s, per-round latency and `requestState` sizes.

pub mod conformance;
pub mod demo;
pub mod loadgen;
pub mod provision;
pub mod questions;
pub mod serve;
pub mod wizard;
