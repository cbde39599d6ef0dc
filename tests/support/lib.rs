//! Shared pieces of the end-to-end tests: servers on loopback, clients, clocks.

pub mod baseline;
pub mod bench_results;
pub mod bench_servers;
pub mod clock;
pub mod differential;
pub mod driver_output;
pub mod keys;
pub mod log_lines;
pub mod long_flow;
pub mod loopback;
pub mod notes;
pub mod peers;
pub mod poll;
pub mod rounds;
pub mod services;
pub mod signups;
pub mod stats;
pub mod store_contract;
pub mod stores_agree;
pub mod straight;
pub mod task_client;
pub mod task_store_contract;
pub mod task_stores_agree;
pub mod transports;
pub mod user;
pub mod wizard_text;
