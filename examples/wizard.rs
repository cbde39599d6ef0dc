//! The wizard example server.
//!
//! ```text
//! cargo run --example wizard                      # Streamable HTTP at http://127.0.0.1:8080/mcp
//! cargo run --example wizard -- --http 127.0.0.1:9000
//! cargo run --example wizard -- --stdio
//! cargo run --example wizard -- --demo            # scripted client, prints each round
//! ```

use std::{collections::BTreeMap, net::SocketAddr};

use mrtr::{Engine, EngineBuilder};
use mrtr_examples::{
    demo,
    serve::{self, Mode},
    wizard::Wizard,
};
use serde_json::json;
use tokio_util::sync::CancellationToken;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    serve::init_logging();
    let mode = serve::mode_from_args("wizard", 8080, &["--http", "--stdio", "--demo"]);
    // No authentication here, so callers are not told apart. A server behind OAuth binds each
    // state to its caller instead: `.principal(|context| /* the token's subject */)`.
    let engine = EngineBuilder::from_env()?.without_principal().build()?;
    match mode {
        Mode::Http(addr) => {
            serve::serve_http_until_ctrl_c(
                "wizard",
                Wizard::new(engine),
                addr,
                serve::Clients::EveryEra,
            )
            .await
        }
        Mode::Stdio => serve::serve_stdio(Wizard::new(engine)).await,
        Mode::Demo => run_demo(engine).await,
    }
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
    let (arguments, signup) = demo::signup_script();
    call(&client, "signup", arguments, &signup).await?;

    let accept = demo::accept;
    let onboard = BTreeMap::from([
        ("profile", accept(json!({"name": "Grace"}))),
        ("role", accept(json!({"role": "admin"}))),
        ("confirm_admin", accept(json!({"confirm": true}))),
        ("repo", accept(json!({"repo": "cobol", "more": false}))),
        ("notify", accept(json!({"level": "mentions"}))),
    ]);
    println!();
    call(&client, "onboard", json!({"team": "Navy"}), &onboard).await?;

    client.cancel().await?;
    cancel.cancel();
    task.await?;
    Ok(())
}

/// Calls `tool` round by round, printing what each round asks and the final result.
async fn call(
    client: &rmcp::service::RunningService<rmcp::service::RoleClient, rmcp::model::ClientConfig>,
    tool: &str,
    arguments: serde_json::Value,
    answers: &BTreeMap<&str, serde_json::Value>,
) -> anyhow::Result<()> {
    println!("calling {tool} {arguments}");
    let mut round = 0;
    let result = demo::drive(client, tool, arguments, answers, |r| {
        round += 1;
        println!("{}", r.line(round));
    })
    .await?;
    println!("result: {}", demo::text_of(&result));
    if let Some(structured) = &result.structured_content {
        println!("structuredContent: {structured}");
    }
    Ok(())
}
