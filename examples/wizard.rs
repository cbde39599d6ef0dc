//! The wizard example server.
//!
//! ```text
//! cargo run --example wizard                      # Streamable HTTP at http://127.0.0.1:8080/mcp
//! cargo run --example wizard -- --http 127.0.0.1:9000
//! cargo run --example wizard -- --stdio
//! cargo run --example wizard -- --demo            # scripted client, prints each round
//! ```

use std::{collections::BTreeMap, net::SocketAddr};

use mrtr::Engine;
use mrtr_examples::{demo, serve, wizard::Wizard};
use serde_json::json;
use tokio_util::sync::CancellationToken;

const USAGE: &str = "usage: wizard [--http ADDR | --stdio | --demo]";

enum Mode {
    Http(SocketAddr),
    Stdio,
    Demo,
}

fn parse_args() -> Result<Mode, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => Ok(Mode::Http(SocketAddr::from(([127, 0, 0, 1], 8080)))),
        ["--http", addr] => addr
            .parse()
            .map(Mode::Http)
            .map_err(|e| format!("--http {addr}: {e}; give an address like 127.0.0.1:8080")),
        ["--stdio"] => Ok(Mode::Stdio),
        ["--demo"] => Ok(Mode::Demo),
        _ => Err(USAGE.to_owned()),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Logs go to stderr: on stdio, stdout carries only MCP messages.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "warn,mrtr=info,wizard=info".into()),
        )
        .init();
    let mode = match parse_args() {
        Ok(mode) => mode,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let engine = Engine::from_env()?;
    match mode {
        Mode::Http(addr) => {
            let cancel = CancellationToken::new();
            let (bound, task) =
                serve::serve_http(Wizard::new(engine), addr, cancel.clone()).await?;
            eprintln!("wizard: serving MCP 2026-07-28 at http://{bound}/mcp (Ctrl-C to stop)");
            tokio::signal::ctrl_c().await?;
            cancel.cancel();
            task.await?;
        }
        Mode::Stdio => serve::serve_stdio(Wizard::new(engine)).await?,
        Mode::Demo => run_demo(engine).await?,
    }
    Ok(())
}

async fn run_demo(engine: Engine) -> anyhow::Result<()> {
    let cancel = CancellationToken::new();
    let (bound, task) = serve::serve_http(
        Wizard::new(engine),
        SocketAddr::from(([127, 0, 0, 1], 0)),
        cancel.clone(),
    )
    .await?;
    let client = demo::connect(&format!("http://{bound}/mcp")).await?;
    let answers = BTreeMap::from([
        (
            "profile",
            json!({"action": "accept", "content": {"name": "Ada", "email": "ada@example.com"}}),
        ),
        (
            "plan",
            json!({"action": "accept", "content": {"plan": "pro"}}),
        ),
        (
            "confirm",
            json!({"action": "accept", "content": {"confirm": true}}),
        ),
    ]);
    println!("calling signup {{\"team\": \"Analytical Engines\"}}");
    let mut round = 0;
    let result = demo::drive(
        &client,
        "signup",
        json!({"team": "Analytical Engines"}),
        &answers,
        |r| {
            round += 1;
            println!(
                "round {round}: asks {:?} ({}); requestState {} bytes",
                r.keys,
                r.messages.join(" | "),
                r.state_bytes
            );
        },
    )
    .await?;
    print_result(&result);

    let answers = BTreeMap::from([
        (
            "profile",
            json!({"action": "accept", "content": {"name": "Grace"}}),
        ),
        (
            "role",
            json!({"action": "accept", "content": {"role": "admin"}}),
        ),
        (
            "confirm_admin",
            json!({"action": "accept", "content": {"confirm": true}}),
        ),
        (
            "repo",
            json!({"action": "accept", "content": {"repo": "cobol", "more": false}}),
        ),
        (
            "notify",
            json!({"action": "accept", "content": {"level": "mentions"}}),
        ),
    ]);
    println!("\ncalling onboard {{\"team\": \"Navy\"}}");
    let mut round = 0;
    let result = demo::drive(&client, "onboard", json!({"team": "Navy"}), &answers, |r| {
        round += 1;
        println!(
            "round {round}: asks {:?} ({}); requestState {} bytes",
            r.keys,
            r.messages.join(" | "),
            r.state_bytes
        );
    })
    .await?;
    print_result(&result);
    client.cancel().await?;
    cancel.cancel();
    task.await?;
    Ok(())
}

fn print_result(result: &rmcp::model::CallToolResult) {
    println!("result: {}", demo::text_of(result));
    if let Some(structured) = &result.structured_content {
        println!("structuredContent: {structured}");
    }
}
