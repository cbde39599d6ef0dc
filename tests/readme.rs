//! The README shows what the code does: its flowchart of `onboard` is the one the macro draws.

#[test]
fn the_readme_shows_the_generated_onboard_flowchart() {
    let readme = include_str!("../README.md");
    let chart = mrtr_examples::wizard::Wizard::ONBOARD_FLOW;
    assert!(
        readme.contains(chart),
        "README.md is out of date; its onboard flowchart should read:\n{chart}"
    );
}

/// The rounds the README shows `--demo` printing for `signup` are what it prints: the state
/// sizes come from a run, not from an edit.
#[tokio::test]
async fn the_readmes_demo_output_is_what_the_demo_prints() {
    use mrtr_examples::{demo, serve, wizard::Wizard};

    let run = async {
        let engine = mrtr::EngineBuilder::from_env()?
            .without_principal()
            .build()?;
        let cancel = tokio_util::sync::CancellationToken::new();
        let local = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        let (bound, task) = serve::serve_http(Wizard::new(engine), local, cancel.clone()).await?;
        let client = demo::connect(&format!("http://{bound}/mcp")).await?;
        let (arguments, answers) = demo::signup_script();
        let mut lines = Vec::new();
        demo::drive(&client, "signup", arguments, &answers, |round| {
            lines.push(round.line(lines.len() + 1))
        })
        .await?;
        client.cancel().await?;
        cancel.cancel();
        task.await?;
        anyhow::Ok(lines)
    };
    let lines = tokio::time::timeout(std::time::Duration::from_secs(30), run)
        .await
        .expect("the demo finishes within 30 s")
        .unwrap();
    assert_eq!(lines.len(), 3, "{lines:?}");
    let readme = include_str!("../README.md");
    for line in lines {
        assert!(
            readme.contains(&line),
            "README.md's `--demo` output is out of date; it should read:\n{line}"
        );
    }
}

/// The README counts the tests it describes: the misuses in `tests/ui/`, the hand-written bodies
/// of `tests/differential.rs` and the generated programs of a default run.
#[test]
fn the_readme_counts_the_tests_it_describes() {
    let readme = include_str!("../README.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let misuses = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/ui"))
        .expect("tests/ui is readable")
        .filter(|entry| {
            entry
                .as_ref()
                .is_ok_and(|entry| entry.path().extension().is_some_and(|e| e == "rs"))
        })
        .count();
    let bodies = include_str!("differential.rs")
        .lines()
        .filter(|line| {
            // `name(args) => {`, or with the arguments taken apart: `name(Args { n, run }) => {`.
            line.strip_prefix("    ").is_some_and(|body| {
                body.split_once('(').is_some_and(|(name, _)| {
                    body.ends_with(") => {")
                        && name.starts_with(|c: char| c.is_ascii_lowercase())
                        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                })
            })
        })
        .count();
    let generated = include_str!("build.rs")
        .lines()
        .find_map(|line| line.strip_prefix("const DEFAULT_COUNT: usize = "))
        .and_then(|rest| rest.strip_suffix(';'))
        .expect("build.rs sets DEFAULT_COUNT");
    for claim in [
        format!("they compile {misuses} misuses"),
        format!("they run {bodies} hand-written tool bodies"),
        format!("and {generated} generated ones"),
    ] {
        assert!(readme.contains(&claim), "README.md should say \"{claim}\"");
    }
}

/// The README's Rust snippets work when copied: each one (but the hand-written rmcp tool of
/// "Before and after", which leaves parts out) appears, line for line, in the modules below,
/// which compile, and whose tests run the servers they make.
#[test]
fn the_readmes_rust_snippets_are_compiled_here() {
    fn lines(text: &str) -> Vec<&str> {
        text.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect()
    }
    let readme = include_str!("../README.md");
    let here = lines(include_str!("readme.rs"));
    let mut checked = 0;
    for block in readme.split("\n```").skip(1).step_by(2) {
        let Some((fence, code)) = block.split_once('\n') else {
            continue;
        };
        if !fence.starts_with("rust") || code.contains("/* ... */") {
            continue;
        }
        let code = lines(code);
        assert!(
            here.windows(code.len())
                .any(|window| window == code.as_slice()),
            "tests/readme.rs has no copy of this README snippet:\n{}",
            code.join("\n")
        );
        checked += 1;
    }
    assert_eq!(
        checked, 8,
        "the README's Rust snippets, but the hand-written tool"
    );
}

// "Add it to your crate", with the `impl` of "Before and after".
#[rustfmt::skip]
#[allow(dead_code)]
mod add_it_to_your_crate {
    use mrtr::{Form, ask, elicit, mrtr_tool};
    use rmcp::{
        ServerHandler, ServiceExt,
        handler::server::{router::tool::ToolRouter, wrapper::Parameters},
        model::{CallToolResult, ContentBlock},
        tool, tool_handler, tool_router,
    };
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Deserialize, JsonSchema)]
    struct SignupArgs {
        /// The team to join.
        team: String,
    }

    #[derive(Serialize, Deserialize, JsonSchema, Form)]
    struct Profile {
        /// What we should call you.
        name: String,
    }

    #[derive(Clone, Copy, Serialize, Deserialize, JsonSchema, Form)]
    #[serde(rename_all = "lowercase")]
    enum Plan { Free, Pro, Enterprise }

    impl Plan {
        fn as_str(self) -> &'static str {
            match self { Plan::Free => "free", Plan::Pro => "pro", Plan::Enterprise => "enterprise" }
        }
    }

    #[derive(Serialize, Deserialize, JsonSchema, Form)]
    struct PlanChoice {
        plan: Plan,
    }

    #[derive(Clone)]
    struct Wizard {
        tool_router: ToolRouter<Self>,
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Wizard {}

    #[tokio::main]
    async fn main() -> Result<(), Box<dyn std::error::Error>> {
        // mrtr logs through `tracing`: why a call failed, why a state was refused, a missing
        // MRTR_KEYS. Without a subscriber none of it shows. On stdio, stdout carries the protocol.
        tracing_subscriber::fmt().with_writer(std::io::stderr).init();
        mrtr::Engine::try_global()?;
        let wizard = Wizard { tool_router: Wizard::tool_router() };
        mrtr::Bridged::new(wizard).serve(rmcp::transport::stdio()).await?.waiting().await?;
        Ok(())
    }

    #[tool_router]
    impl Wizard {
        #[mrtr_tool]
        #[tool(description = "Sign up to a team")]
        async fn signup(&self, Parameters(args): Parameters<SignupArgs>) -> Result<CallToolResult, String> {
            let profile = ask!(profile = elicit::<Profile>(format!("Welcome to {}!", args.team)))
                .accepted()
                .map_err(|refused| format!("Signup cancelled at {}", refused.key))?;
            let plan = ask!(plan = elicit::<PlanChoice>("Which plan would you like?"))
                .accepted()
                .map_err(|refused| format!("Signup cancelled at {}", refused.key))?
                .plan;
            Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "Signed up {} to {} on the {} plan", profile.name, args.team, plan.as_str()
            ))]))
        }
    }

    impl mrtr::MrtrServer for Wizard {}   // seal with the keys in MRTR_KEYS

    mod serving_http {
        use super::Wizard;

        async fn main(wizard: Wizard) -> Result<(), Box<dyn std::error::Error>> {
            use std::sync::Arc;

            use mrtr::MrtrServer;
            use rmcp::transport::streamable_http_server::{
                StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
            };

            // In `main`, in place of the stdio lines of "Add it to your crate":
            // rmcp closes a session idle for 5 minutes; a question may wait for the state TTL (10).
            let mut sessions = LocalSessionManager::default();
            sessions.session_config.keep_alive = Some(wizard.mrtr_engine().session_keep_alive());
            let service = StreamableHttpService::new(
                move || Ok(mrtr::Bridged::new(wizard.clone())),
                Arc::new(sessions),
                StreamableHttpServerConfig::default().with_legacy_session_mode(true),
            );
            let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
            axum::serve(listener, axum::Router::new().nest_service("/mcp", service)).await?;
            // or, over stdio: mrtr::Bridged::new(wizard).serve(rmcp::transport::stdio())
            Ok(())
        }
    }

    #[tokio::test]
    async fn its_signup_runs() {
        use mrtr::testing::{Answer, Harness};
        use serde_json::json;

        // As "Testing your tools" says, to see why a round failed or asked again.
        let _ = tracing_subscriber::fmt().with_env_filter("mrtr=debug").with_test_writer().try_init();
        let harness = Harness::start(Wizard { tool_router: Wizard::tool_router() }).await;
        let run = harness
            .call("signup")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answers("plan", [Answer::accept(json!({"plan": "gold"})), Answer::accept(json!({"plan": "pro"}))])
            .run()
            .await
            .unwrap();
        assert_eq!(run.keys(), ["profile", "plan", "plan"]);
        assert_eq!(run.text(), "Signed up Ada to Rust on the pro plan");
    }

    /// What "Clients of every era" says of the `Host` check: rmcp's Streamable HTTP server
    /// refuses a name it was not given with 403, and serves one listed with
    /// `with_allowed_hosts`.
    #[tokio::test]
    async fn the_http_server_answers_only_the_hosts_it_is_given() {
        use std::sync::Arc;

        use rmcp::transport::streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        };

        async fn status(config: StreamableHttpServerConfig, host: &str) -> (u16, String) {
            let wizard = Wizard { tool_router: Wizard::tool_router() };
            let service = StreamableHttpService::new(
                move || Ok(mrtr::Bridged::new(wizard.clone())),
                Arc::new(LocalSessionManager::default()),
                config,
            );
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let url = format!("http://{}/mcp", listener.local_addr().unwrap());
            let server = tokio::spawn(async move {
                axum::serve(listener, axum::Router::new().nest_service("/mcp", service)).await
            });
            let discover = serde_json::json!({
                "jsonrpc": "2.0", "id": 1, "method": "server/discover",
                "params": {"_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientInfo": {"name": "readme", "version": "1"},
                    "io.modelcontextprotocol/clientCapabilities": {}
                }}
            });
            let response = reqwest::Client::new()
                .post(url)
                .header("Host", host)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "server/discover")
                .body(discover.to_string())
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            let body = response.text().await.unwrap_or_default();
            server.abort();
            (status, body)
        }

        let (refused, body) = status(StreamableHttpServerConfig::default(), "mcp.example.com").await;
        assert_eq!(refused, 403, "{body}");
        assert_eq!(body, "Forbidden: Host header is not allowed");
        let listed = StreamableHttpServerConfig::default().with_allowed_hosts(["mcp.example.com"]);
        let (served, body) = status(listed, "mcp.example.com").await;
        assert_eq!(served, 200, "{body}");
        assert!(body.contains("supportedVersions"), "{body}");
    }
}

// "Every kind of question": several in one round.
#[rustfmt::skip]
mod several_in_one_round {
    use mrtr::{Form, ask, elicit, mrtr_tool, roots};
    use rmcp::{ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router};

    #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Form)]
    struct Name {
        name: String,
    }

    #[derive(Clone)]
    struct Server {
        tool_router: ToolRouter<Self>,
    }

    impl mrtr::MrtrServer for Server {}

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Server {}

    #[tool_router]
    impl Server {
        #[mrtr_tool]
        #[tool(description = "Asks a name and the roots at once")]
        async fn greet(&self) -> Result<String, String> {
            let (name, places) = ask!(user_name = elicit::<Name>("What is your name?"), client_roots = roots());
            Ok(format!("{} in {}", name.accepted()?.name, places.len()))
        }
    }

    #[tokio::test]
    async fn both_are_asked_in_one_round() {
        use mrtr::testing::{Answer, Harness};
        use serde_json::json;

        let harness = Harness::start(Server { tool_router: Server::tool_router() }).await;
        let run = harness
            .call("greet")
            .answer("user_name", Answer::accept(json!({"name": "Ada"})))
            .answer("client_roots", Answer::roots(["file:///a", "file:///b"]))
            .run()
            .await
            .unwrap();
        assert_eq!(run.round_count(), 1);
        assert_eq!(run.text(), "Ada in 2");
    }
}

// "Testing your tools".
#[rustfmt::skip]
mod testing_your_tools {
    use mrtr::{Engine, testing::{Answer, Harness}};
    use mrtr_examples::wizard::Wizard; // the server under test
    use serde_json::json;

    #[tokio::test]
    async fn signup_asks_three_questions() {
        let engine = Engine::builder().without_principal().build().unwrap();
        let harness = Harness::start(Wizard::new(engine)).await;

        let run = harness
            .call("signup")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answer("plan", Answer::accept(json!({"plan": "pro"})))
            .answer("confirm", Answer::accept(json!({"confirm": true})))
            .run()
            .await
            .unwrap();
        assert_eq!(run.keys(), ["profile", "plan", "confirm"]);
        assert_eq!(run.asked("plan").message, "Which plan would you like?");
        assert_eq!(run.asked("plan").schema["properties"]["plan"]["enum"], json!(["free", "pro", "enterprise"]));
        assert_eq!(run.round_count(), 3);
        assert!(run.max_state_bytes() < 256);
        assert_eq!(run.text(), "Signed up Ada to Rust on the pro plan");

        // A decline ends the call at that key.
        let run = harness
            .call("signup")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answer("plan", Answer::decline())
            .run()
            .await
            .unwrap();
        assert!(run.is_error());
        assert_eq!(run.text(), "Signup cancelled at plan");
    }
}

// "Prompts and resources".
#[rustfmt::skip]
mod prompts_and_resources {
    use mrtr::{Form, ask, elicit, mrtr_prompt, mrtr_resource};
    use rmcp::{
        ErrorData, RoleServer, ServerHandler,
        handler::server::router::prompt::PromptRouter,
        model::*,
        prompt, prompt_router,
        service::RequestContext,
    };

    #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Form)]
    struct Topic {
        topic: String,
    }

    #[derive(Clone)]
    struct Server {
        prompt_router: PromptRouter<Self>,
    }

    impl mrtr::MrtrServer for Server {}

    #[prompt_router]
    impl Server {
        #[mrtr_prompt]
        #[prompt(description = "A brief, once we know the topic")]
        async fn brief(&self) -> Result<GetPromptResult, ErrorData> {
            let topic = ask!(topic = elicit::<Topic>("What about?"))
                .accepted()
                .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?
                .topic;
            Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, format!("Brief me on {topic}."))]))
        }
    }

    impl Server {
        #[mrtr_resource]
        async fn secret(&self, request: ReadResourceRequestParams, context: RequestContext<RoleServer>)
            -> Result<ReadResourceResult, ErrorData> {
            let topic = ask!(topic = elicit::<Topic>("Which plans?"))
                .accepted()
                .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?
                .topic;
            Ok(ReadResourceResult::new(vec![ResourceContents::text(format!("The {topic} plans"), request.uri)]))
        }
    }

    impl ServerHandler for Server {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_prompts().enable_resources().build())
        }

        async fn get_prompt(&self, request: GetPromptRequestParams, context: RequestContext<RoleServer>)
            -> Result<GetPromptResponse, ErrorData> {
            mrtr::get_prompt(&self.prompt_router, self, request, context).await
        }

        async fn list_prompts(&self, _: Option<PaginatedRequestParams>, _: RequestContext<RoleServer>)
            -> Result<ListPromptsResult, ErrorData> {
            Ok(ListPromptsResult::with_all_items(self.prompt_router.list_all()))
        }

        async fn read_resource(&self, request: ReadResourceRequestParams, context: RequestContext<RoleServer>)
            -> Result<ReadResourceResponse, ErrorData> {
            match request.uri.as_str() {
                "secret://plans" => self.secret(request, context).await,
                _ => Err(ErrorData::resource_not_found("no such resource", None)),
            }
        }
    }

    #[tokio::test]
    async fn the_prompt_and_the_resource_ask() {
        use mrtr::testing::{Answer, Harness};
        use serde_json::json;

        let harness = Harness::start(Server { prompt_router: Server::prompt_router() }).await;
        let run = harness
            .prompt("brief")
            .answer("topic", Answer::accept(json!({"topic": "owls"})))
            .run()
            .await
            .unwrap();
        assert_eq!(run.text(), "Brief me on owls.");
        let run = harness
            .resource("secret://plans")
            .answer("topic", Answer::accept(json!({"topic": "pro"})))
            .run()
            .await
            .unwrap();
        assert_eq!(run.text(), "The pro plans");
    }
}

// "Single use and a bounded lifetime": compiled, not run (it names a Redis).
#[rustfmt::skip]
#[allow(dead_code)]
mod single_use {
    use std::time::Duration;

    use mrtr::Engine;

    fn engine() -> Result<Engine, Box<dyn std::error::Error>> {
        let engine = Engine::builder()
            .keys_from_env()?
            .replay_store(mrtr::replay::RedisStore::open("redis://127.0.0.1:6379/0")?)
            .lease(Duration::from_secs(10))           // a dead instance's claim blocks retries this long
            .duplicate_wait(Duration::from_secs(30))  // a concurrent duplicate waits this long at most
            .ttl(Duration::from_secs(600))            // each state expires this long after it is handed out
            .flow_lifetime(Duration::from_secs(3600)) // and never after the flow's deadline
            .max_rounds(100)                          // nor past this round
            .build()?;
        Ok(engine)
    }
}

// "Tasks": the tool, run here as an ordinary call (the harness's client does not declare the
// tasks extension).
#[rustfmt::skip]
mod tasks {
    use mrtr::{Form, ask, elicit, mrtr_tool};
    use rmcp::{ServerHandler, handler::server::{router::tool::ToolRouter, wrapper::Parameters}, tool, tool_handler, tool_router};

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct MigrateArgs {
        database: String,
    }

    #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Form)]
    struct Confirm {
        confirm: bool,
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Plan {
        drops: Vec<String>,
    }

    async fn plan_migration(database: &str) -> Plan {
        Plan { drops: vec![format!("{database}.old")] }
    }

    async fn apply(plan: Plan, go: bool) -> String {
        if go { format!("dropped {}", plan.drops.join(", ")) } else { "dropped nothing".to_owned() }
    }

    #[derive(Clone)]
    struct Server {
        tool_router: ToolRouter<Self>,
    }

    impl mrtr::MrtrServer for Server {}

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Server {}

    #[tool_router]
    impl Server {
        #[mrtr_tool(task = "optional")]        // or "required"
        #[tool(description = "Migrates the database, asking before it drops anything")]
        async fn migrate(&self, Parameters(args): Parameters<MigrateArgs>) -> Result<String, String> {
            let plan = plan_migration(&args.database).await;          // minutes, inside the task
            let go = ask!(confirm = elicit::<Confirm>(format!("Drop {} tables?", plan.drops.len())))
                .accepted()
                .is_ok_and(|answer| answer.confirm);
            Ok(apply(plan, go).await)                                  // runs once, after the answer
        }
    }

    #[tokio::test]
    async fn migrate_asks_before_it_drops() {
        use mrtr::testing::{Answer, Harness};
        use serde_json::json;

        let harness = Harness::start(Server { tool_router: Server::tool_router() }).await;
        let run = harness
            .call("migrate")
            .arguments(json!({"database": "shop"}))
            .answer("confirm", Answer::accept(json!({"confirm": true})))
            .run()
            .await
            .unwrap();
        assert_eq!(run.asked("confirm").message, "Drop 1 tables?");
        assert_eq!(run.text(), "dropped shop.old");
    }
}

// "Every kind of question": the table's names, as a user writes them.
#[allow(dead_code, deprecated)]
mod every_kind_of_question {
    use mrtr::{Capabilities, Root, Sample, Sampled, UrlElicited, elicit_url, roots, sample};
    use rmcp::model::SamplingMessage;

    fn questions() {
        let _ = sample("Summarize")
            .max_tokens(100)
            .system("Be brief")
            .temperature(0.2)
            .prefer_model("claude")
            .tools(Vec::new());
        let _ = Sample::messages(vec![SamplingMessage::user_text("Summarize")]);
        let _ = elicit_url("Sign in", "https://example.com/login");
        let _ = roots();
    }

    fn answers(sampled: Sampled, url: UrlElicited, root: Root, caps: Capabilities) {
        let Sampled {
            text,
            model,
            stop_reason,
            ..
        } = sampled.clone();
        let _: (String, String, Option<String>) = (text, model, stop_reason);
        let _: serde_json::Value = sampled.result();
        let _ = matches!(
            url,
            UrlElicited::Accept | UrlElicited::Decline(_) | UrlElicited::Cancel(_)
        );
        let Root { uri, name, .. } = root;
        let _: (String, Option<String>) = (uri, name);
        let _ = (
            caps.elicitation_form(),
            caps.elicitation_url(),
            caps.sampling(),
            caps.sampling_tools(),
            caps.roots(),
        );
    }
}

/// The README's `Cargo.toml` asks for the versions the workspace builds with (and
/// `tests/readme.rs` compiles its `main.rs` with them): a bump here is a bump there.
#[test]
fn the_readmes_dependencies_are_the_workspaces() {
    fn version_of(line: &str) -> Option<(&str, &str)> {
        let (name, spec) = line.split_once(" = ")?;
        let spec = spec.split(" #").next()?.trim();
        let version = match spec.strip_prefix("{ version = ") {
            Some(rest) => rest.split(',').next()?.trim_end_matches(" }"),
            None => spec,
        };
        Some((name.trim(), version.trim_matches('"')))
    }
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("## Add it to your crate").unwrap()..];
    let toml = section
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("\"Add it to your crate\" has a Cargo.toml");
    let workspace = [
        include_str!("../Cargo.toml"),
        include_str!("../examples/Cargo.toml"),
    ];
    let mut checked = Vec::new();
    for (name, version) in toml.lines().filter_map(version_of) {
        if name == "mrtr" {
            assert!(
                version.starts_with("{ path = ") && version.contains("/runtime\""),
                "mrtr is not on crates.io: the README should depend on it by path, not {version}"
            );
            continue;
        }
        let ours = workspace
            .iter()
            .flat_map(|manifest| manifest.lines())
            .filter_map(version_of)
            .find(|(ours, _)| *ours == name)
            .map(|(_, version)| version);
        assert_eq!(
            ours,
            Some(version),
            "the README asks for {name} {version}, the workspace for {ours:?}"
        );
        checked.push(name);
    }
    assert_eq!(
        checked,
        [
            "rmcp",
            "schemars",
            "serde",
            "tokio",
            "tracing-subscriber",
            "axum",
            "serde_json"
        ]
    );
}
