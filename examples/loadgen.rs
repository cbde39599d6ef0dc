//! A load generator for the wizard: drives whole `signup` or `onboard` flows at a server on
//! loopback, checks every result, and reports flows/s, per-round latency percentiles and
//! `requestState` sizes, as a summary and one JSON object (only the JSON with `--json`).
//!
//! ```text
//! cargo run --release --example wizard -- --http 127.0.0.1:9000 &
//! cargo run --release --example loadgen -- --url http://127.0.0.1:9000/mcp --tool signup \
//!     --flows 1000 --concurrency 8 --seconds 30
//! ```
//!
//! See [`mrtr_examples::loadgen::USAGE`] for every option. Exit status: 0 when no flow failed
//! and one completed, 1 otherwise, 2 on a usage error or a URL that is not loopback.

use std::io::Write;

use mrtr_examples::{loadgen, serve};

#[tokio::main]
async fn main() {
    serve::init_logging();
    let options = match loadgen::Options::from_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(loadgen::Error::Help) => {
            println!("{}", loadgen::USAGE);
            return;
        }
        Err(error) => {
            eprintln!("loadgen: {error}");
            if matches!(error, loadgen::Error::Usage(_)) {
                eprintln!("{}", loadgen::USAGE);
            }
            std::process::exit(error.exit_code());
        }
    };
    let code = match loadgen::run(&options).await {
        Ok(report) => {
            if !options.json {
                print!("{report}");
            }
            println!("{}", report.to_json_line());
            if report.passed() { 0 } else { 1 }
        }
        Err(error) => {
            eprintln!("loadgen: {error}");
            error.exit_code()
        }
    };
    let _ = std::io::stdout().flush();
    std::process::exit(code);
}
