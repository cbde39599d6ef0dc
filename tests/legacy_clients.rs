//! Pre-2026 clients (2025-11-25 sessions) served by [`mrtr::Bridged`], with rmcp's own client
//! pinned to 2025-11-25: the same `#[mrtr_tool]` runs its rounds in process, each question sent
//! to the client as `elicitation/create` on its session, over a duplex pipe and over Streamable
//! HTTP with a session. Also: a capability the client did not declare, a question left
//! unanswered past the state's TTL, two calls in flight on one session answered in reverse
//! order, a new call after a cancelled one, answers that do not fit, a refused sampling or
//! roots question, and a client slow to answer, within the TTL or past the flow's lifetime.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
};

use mrtr::Bridged;
use mrtr_examples::{demo::text_of, wizard::Wizard};
use mrtr_tests::{poll::until, transports::bounded};
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, ServiceExt,
    model::{
        CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest,
        ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, JsonObject,
        ProtocolVersion,
    },
    service::{PeerRequestOptions, RequestContext, RoleClient, RunningService},
    transport::{
        StreamableHttpClientTransport,
        streamable_http_client::StreamableHttpClientTransportConfig,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        },
    },
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// A 2025-11-25 client that answers signup's questions and records each message.
#[derive(Clone, Default)]
struct LegacyUser {
    asked: Arc<Mutex<Vec<String>>>,
    /// Declares no elicitation capability.
    no_elicitation: bool,
    /// Declines the notification level of the second repository `onboard` asks about.
    decline_second_level: bool,
    /// Speaks 2025-06-18 instead of 2025-11-25.
    older: bool,
}

impl ClientHandler for LegacyUser {
    fn get_info(&self) -> ClientConfig {
        let capabilities = match self.no_elicitation {
            true => ClientCapabilities::default(),
            false => ClientCapabilities::builder().enable_elicitation().build(),
        };
        let mut config = ClientConfig::new(capabilities, Implementation::new("legacy-user", "1"));
        config.protocol_version = match self.older {
            true => ProtocolVersion::V_2025_06_18,
            false => ProtocolVersion::V_2025_11_25,
        };
        config
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        self.asked.lock().unwrap().push(message.clone());
        let content: Value = match message.as_str() {
            m if m.starts_with("Welcome") => json!({"name": "Ada"}),
            m if m.starts_with("Which plan") => json!({"plan": "pro"}),
            m if m.starts_with("Which role") => json!({"role": "admin"}),
            m if m.ends_with("(0 so far)") => json!({"repo": "mrtr", "more": true}),
            m if m.ends_with("(1 so far)") => json!({"repo": "rmcp", "more": false}),
            "Notifications for mrtr?" => json!({"level": "all"}),
            "Notifications for rmcp?" if self.decline_second_level => {
                return Ok(ElicitResult::new(ElicitationAction::Decline));
            }
            "Notifications for rmcp?" => json!({"level": "mentions"}),
            _ => json!({"confirm": true}),
        };
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }
}

fn engine() -> mrtr::EngineBuilder {
    mrtr::Engine::builder().key(1, mrtr_tests::keys::test_key(4))
}

fn wizard() -> Bridged<Wizard> {
    Bridged::new(Wizard::new(engine().build().unwrap()))
}

/// `server` on one end of an in-memory pipe, and `user` connected to it with `initialize`.
async fn on_a_pipe<S: rmcp::ServerHandler, C: ClientHandler + Clone>(
    server: S,
    user: &C,
) -> anyhow::Result<RunningService<RoleClient, C>> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    Ok(user
        .clone()
        .serve_with_lifecycle(client_io, ClientLifecycleMode::Initialize)
        .await?)
}

async fn sign_up<C: ClientHandler>(client: &RunningService<RoleClient, C>, user: &LegacyUser) {
    let info = client.peer_info().expect("initialized");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    // A session runs calls in process: the tasks extension is for 2026-07-28 clients.
    assert!(
        !info.capabilities.supports_tasks(),
        "{:?}",
        info.capabilities.extensions
    );
    let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"})).unwrap();
    let result = client
        .call_tool(CallToolRequestParams::new("signup").with_arguments(arguments))
        .await
        .expect("the legacy call completes");
    assert_eq!(text_of(&result), "Signed up Ada to Rust on the pro plan");
    assert_eq!(
        *user.asked.lock().unwrap(),
        [
            "Welcome to Rust! What should we call you?",
            "Which plan would you like?",
            "Sign Ada up for pro?"
        ]
    );
}

#[tokio::test]
async fn a_2025_11_25_client_signs_up_over_a_pipe() -> anyhow::Result<()> {
    bounded(async {
        let user = LegacyUser::default();
        let client = on_a_pipe(wizard(), &user).await?;
        sign_up(&client, &user).await;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_2025_11_25_client_signs_up_over_http_with_a_session() -> anyhow::Result<()> {
    bounded(async {
        let cancel = CancellationToken::new();
        let service: StreamableHttpService<Bridged<Wizard>, LocalSessionManager> =
            StreamableHttpService::new(
                || Ok(wizard()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default()
                    .with_legacy_session_mode(true)
                    .with_cancellation_token(cancel.child_token()),
            );
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let url = format!("http://{}/mcp", listener.local_addr()?);
        let router = axum::Router::new().nest_service("/mcp", service);
        let server_cancel = cancel.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move { server_cancel.cancelled_owned().await })
                .await;
        });
        let user = LegacyUser::default();
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(url),
        );
        let client = user
            .clone()
            .serve_with_lifecycle(transport, ClientLifecycleMode::Initialize)
            .await?;
        sign_up(&client, &user).await;
        cancel.cancel();
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_question_the_client_did_not_declare_ends_the_tool_with_an_error_result()
-> anyhow::Result<()> {
    bounded(async {
        let user = LegacyUser {
            no_elicitation: true,
            ..LegacyUser::default()
        };
        let client = on_a_pipe(wizard(), &user).await?;
        let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"}))?;
        let result = client
            .call_tool(CallToolRequestParams::new("signup").with_arguments(arguments))
            .await?;
        // As the official SDKs' tools end on a 2025 session: an error result, not -32021.
        assert_eq!(result.is_error, Some(true), "{result:?}");
        assert_eq!(
            text_of(&result),
            "Client does not support elicitation (required for elicitation/create)"
        );
        assert!(user.asked.lock().unwrap().is_empty());
        Ok(())
    })
    .await
}

async fn onboard(decline_second_level: bool) -> anyhow::Result<(Vec<String>, String)> {
    let user = LegacyUser {
        decline_second_level,
        ..LegacyUser::default()
    };
    let client = on_a_pipe(wizard(), &user).await?;
    let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"}))?;
    let result = client
        .call_tool(CallToolRequestParams::new("onboard").with_arguments(arguments))
        .await?;
    let asked = user.asked.lock().unwrap().clone();
    Ok((asked, text_of(&result)))
}

const ONBOARD_QUESTIONS: [&str; 7] = [
    "Welcome to Rust! What should we call you?",
    "Which role will you take?",
    "Admins can delete repositories. Continue as admin?",
    "Add a repository to watch (0 so far)",
    "Add a repository to watch (1 so far)",
    "Notifications for mrtr?",
    "Notifications for rmcp?",
];

#[tokio::test]
async fn onboard_runs_its_branch_and_both_loops() -> anyhow::Result<()> {
    bounded(async {
        let (asked, result) = onboard(false).await?;
        assert_eq!(asked, ONBOARD_QUESTIONS);
        assert_eq!(
            result,
            "Onboarded Ada as admin to Rust: mrtr=all, rmcp=mentions"
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_decline_inside_the_for_loop_ends_onboard() -> anyhow::Result<()> {
    bounded(async {
        let (asked, result) = onboard(true).await?;
        assert_eq!(asked, ONBOARD_QUESTIONS);
        assert_eq!(result, "Onboarding cancelled at notify");
        Ok(())
    })
    .await
}

/// Calls `signup` for team Rust, which must fail with a JSON-RPC error.
async fn signup_fails<C: ClientHandler>(
    client: &RunningService<RoleClient, C>,
) -> anyhow::Result<ErrorData> {
    let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"}))?;
    match client
        .call_tool(CallToolRequestParams::new("signup").with_arguments(arguments))
        .await
    {
        Err(rmcp::ServiceError::McpError(error)) => Ok(error),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// rmcp closes an idle session after 5 minutes by default, and a session whose user is still
/// filling a form is idle: the examples keep it as long as the question may wait.
#[test]
fn the_examples_keep_a_session_while_its_question_may_wait() -> anyhow::Result<()> {
    for ttl in [
        mrtr::Engine::DEFAULT_TTL,
        std::time::Duration::from_secs(3600),
    ] {
        let engine = engine().ttl(ttl).build()?;
        let sessions = mrtr_examples::serve::session_manager(&engine);
        let kept = sessions.session_config.keep_alive;
        assert!(
            kept.is_some_and(|kept| kept > ttl),
            "{kept:?} for a TTL of {ttl:?}"
        );
    }
    Ok(())
}

#[tokio::test]
async fn a_question_left_unanswered_times_out_after_the_state_ttl() -> anyhow::Result<()> {
    bounded(async {
        let engine = engine().ttl(std::time::Duration::from_secs(1)).build()?;
        let client = on_a_pipe(Bridged::new(Wizard::new(engine)), &Unanswering::Silent).await?;
        let error = signup_fails(&client).await?;
        assert_eq!(error.message, "the client did not answer within 1s");
        Ok(())
    })
    .await
}

/// A 2025-11-25 client that does not answer: it never replies, or its elicitation handler
/// fails, as the SDKs' clients do when no handler is set or the user's UI breaks.
#[derive(Clone, Copy)]
enum Unanswering {
    Silent,
    Failing,
    /// Answers every form with an email that is not one.
    Unfitting,
}

impl ClientHandler for Unanswering {
    fn get_info(&self) -> ClientConfig {
        LegacyUser::default().get_info()
    }

    async fn create_elicitation(
        &self,
        _: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        match self {
            Unanswering::Silent => std::future::pending().await,
            Unanswering::Failing => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                "no elicitation handler",
                None,
            )),
            Unanswering::Unfitting => Ok(ElicitResult::new(ElicitationAction::Accept)
                .with_content(json!({"name": "Ada", "email": "ada at example"}))),
        }
    }
}

#[tokio::test]
async fn a_client_that_fails_to_answer_ends_the_call_with_an_error_of_the_server()
-> anyhow::Result<()> {
    bounded(async {
        let client = on_a_pipe(wizard(), &Unanswering::Failing).await?;
        let error = signup_fails(&client).await?;
        // Not the client's own -32601, which would say `tools/call` was not found.
        assert_eq!(
            error.code,
            rmcp::model::ErrorCode::INTERNAL_ERROR,
            "{error:?}"
        );
        assert_eq!(
            error.message,
            "the client answered `profile` with an error, so the call cannot go on"
        );
        assert_eq!(
            error.data,
            Some(json!({
                "key": "profile",
                "clientError": {"code": -32601, "message": "no elicitation handler"},
            }))
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn the_round_cap_applies_on_a_session() -> anyhow::Result<()> {
    bounded(async {
        let engine = engine().max_rounds(2).build()?;
        let user = LegacyUser::default();
        let client = on_a_pipe(Bridged::new(Wizard::new(engine)), &user).await?;
        let error = signup_fails(&client).await?;
        assert!(error.message.contains("more than 2 rounds"), "{error:?}");
        // Two rounds were asked; the third is past the cap.
        assert_eq!(user.asked.lock().unwrap().len(), 2);
        Ok(())
    })
    .await
}

/// A client whose answer never fits is asked again until the round cap, which says why.
#[tokio::test]
async fn the_round_cap_says_why_the_answers_were_asked_again() -> anyhow::Result<()> {
    bounded(async {
        let engine = engine().max_rounds(3).build()?;
        let client = on_a_pipe(Bridged::new(Wizard::new(engine)), &Unanswering::Unfitting).await?;
        let error = signup_fails(&client).await?;
        assert_eq!(
            error.message,
            "this call took more than 3 rounds (the last answers did not fit: [\"profile\"]: the \
             answer breaks its schema: `email` is not an email address); call the tool again"
        );
        assert!(!error.message.contains("ada at example"));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_2025_06_18_client_signs_up_too() -> anyhow::Result<()> {
    bounded(async {
        let user = LegacyUser {
            older: true,
            ..LegacyUser::default()
        };
        let client = on_a_pipe(wizard(), &user).await?;
        assert_eq!(
            client.peer_info().map(|info| info.protocol_version.clone()),
            Some(ProtocolVersion::V_2025_06_18)
        );
        let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"}))?;
        let result = client
            .call_tool(CallToolRequestParams::new("signup").with_arguments(arguments))
            .await?;
        assert_eq!(text_of(&result), "Signed up Ada to Rust on the pro plan");
        assert_eq!(user.asked.lock().unwrap().len(), 3);
        Ok(())
    })
    .await
}

/// Questions the server withdraws. Sampling and roots are deprecated by SEP-2577, and a 2025
/// client still answers them.
#[allow(deprecated)]
mod withdrawn {
    use super::*;
    use rmcp::model::{CreateMessageRequestParams, CreateMessageResult, ListRootsResult};

    /// A 2025-11-25 client that answers every question only when the server withdraws it
    /// (`notifications/cancelled`), and notes which it saw withdrawn; or fails the elicitation at
    /// once, with `fail_elicitation`.
    #[derive(Clone, Default)]
    struct Waiting {
        asked: Arc<Mutex<Vec<&'static str>>>,
        withdrawn: Arc<Mutex<Vec<&'static str>>>,
        fail_elicitation: bool,
    }

    impl Waiting {
        async fn wait(&self, kind: &'static str, context: &RequestContext<RoleClient>) {
            self.asked.lock().unwrap().push(kind);
            context.ct.cancelled().await;
            self.withdrawn.lock().unwrap().push(kind);
        }

        /// Waits, within the test's bound, until `kinds` were withdrawn.
        async fn until_withdrawn(&self, kinds: &[&str]) {
            loop {
                let mut seen = self.withdrawn.lock().unwrap().clone();
                seen.sort_unstable();
                if seen == kinds {
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
    }

    impl ClientHandler for Waiting {
        fn get_info(&self) -> ClientConfig {
            let capabilities = ClientCapabilities::builder()
                .enable_elicitation()
                .enable_sampling()
                .enable_roots()
                .build();
            let mut config =
                ClientConfig::new(capabilities, Implementation::new("waiting-user", "1"));
            config.protocol_version = ProtocolVersion::V_2025_11_25;
            config
        }

        async fn create_elicitation(
            &self,
            _: ElicitRequestParams,
            context: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, ErrorData> {
            if self.fail_elicitation {
                return Err(ErrorData::internal_error("the form broke", None));
            }
            self.wait("elicitation", &context).await;
            Ok(ElicitResult::new(ElicitationAction::Cancel))
        }

        async fn create_message(
            &self,
            _: CreateMessageRequestParams,
            context: RequestContext<RoleClient>,
        ) -> Result<CreateMessageResult, ErrorData> {
            self.wait("sampling", &context).await;
            Err(ErrorData::internal_error("withdrawn", None))
        }

        async fn list_roots(
            &self,
            context: RequestContext<RoleClient>,
        ) -> Result<ListRootsResult, ErrorData> {
            self.wait("roots", &context).await;
            Ok(ListRootsResult::default())
        }
    }

    /// A cancelled call withdraws the question it waits on, so that the client can take its form
    /// down, and the session goes on.
    #[tokio::test]
    async fn a_cancelled_call_withdraws_the_question_it_waits_on() -> anyhow::Result<()> {
        bounded(async {
            let user = Waiting::default();
            let client = on_a_pipe(wizard(), &user).await?;
            let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"}))?;
            let call = ClientRequest::CallToolRequest(CallToolRequest::new(
                CallToolRequestParams::new("signup").with_arguments(arguments),
            ));
            let handle = client
                .send_request_with_option(call, PeerRequestOptions::no_options())
                .await?;
            while user.asked.lock().unwrap().is_empty() {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            handle
                .cancel(Some("the user closed the chat".to_owned()))
                .await?;
            user.until_withdrawn(&["elicitation"]).await;
            // The session still serves calls.
            assert!(!client.list_tools(None).await?.tools.is_empty());
            Ok(())
        })
        .await
    }

    /// A client that fails one question of a round ends the call at once, and the round's other
    /// questions are withdrawn, not left waiting for answers that no longer matter.
    #[tokio::test]
    async fn a_failed_question_ends_its_round_and_withdraws_the_others() -> anyhow::Result<()> {
        bounded(async {
            let engine = engine().build()?;
            let server = Bridged::new(mrtr_examples::conformance::Conformance::new(engine));
            let user = Waiting {
                fail_elicitation: true,
                ..Waiting::default()
            };
            let (server_io, client_io) = tokio::io::duplex(64 * 1024);
            tokio::spawn(async move {
                if let Ok(running) = server.serve(server_io).await {
                    let _ = running.waiting().await;
                }
            });
            let client = user
                .clone()
                .serve_with_lifecycle(client_io, ClientLifecycleMode::Initialize)
                .await?;
            let error = client
                .call_tool(CallToolRequestParams::new(
                    "test_input_required_result_multiple_inputs",
                ))
                .await
                .expect_err("the client failed a question");
            assert!(
                error
                    .to_string()
                    .contains("answered `user_name` with an error"),
                "{error}"
            );
            user.until_withdrawn(&["roots", "sampling"]).await;
            Ok(())
        })
        .await
    }
}

/// How long a client of these tests waits for the server, within [`bounded`]'s 30 s.
const WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// The form message of an elicitation, or `None` for a URL one.
fn form_message(request: &ElicitRequestParams) -> Option<String> {
    match request {
        ElicitRequestParams::FormElicitationParams { message, .. } => Some(message.clone()),
        _ => None,
    }
}

/// A 2025-11-25 client with two `signup` calls in flight, for teams A and B: it holds each
/// question until the other call has asked its own of the same kind, then answers the one
/// asked last first. Ann (team A) confirms; Bob (team B) cancels at the confirmation. The two
/// plan questions read alike, so the first asked gets `free` and the other `enterprise`, and
/// the confirmation each call asks says which it got.
#[derive(Clone, Default)]
struct Crossed {
    /// The questions asked, by kind (the message's first word), in the order they came.
    arrived: Arc<Mutex<std::collections::BTreeMap<String, Vec<String>>>>,
    /// The questions in the order they were answered.
    answered: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Crossed {
    fn get_info(&self) -> ClientConfig {
        LegacyUser::default().get_info()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let Some(message) = form_message(&request) else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        let kind = message.split(' ').next().unwrap_or_default().to_owned();
        let first = {
            let mut arrived = self.arrived.lock().unwrap();
            let of_kind = arrived.entry(kind.clone()).or_default();
            of_kind.push(message.clone());
            of_kind.len() == 1
        };
        until("the other call's question", WAIT, || {
            self.arrived.lock().unwrap()[&kind].len() == 2
        })
        .await
        .expect("both calls ask each question");
        if first {
            // Only once the other call's question of this kind has been answered.
            let other = self.arrived.lock().unwrap()[&kind][1].clone();
            until("the other call's answer", WAIT, || {
                self.answered.lock().unwrap().contains(&other)
            })
            .await
            .expect("the later question is answered first");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let answer = match message.as_str() {
            "Welcome to A! What should we call you?" => {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ann"}))
            }
            "Welcome to B! What should we call you?" => {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Bob"}))
            }
            "Which plan would you like?" => {
                let plan = if first { "free" } else { "enterprise" };
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"plan": plan}))
            }
            m if m.starts_with("Sign Ann up") => {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true}))
            }
            m if m.starts_with("Sign Bob up") => ElicitResult::new(ElicitationAction::Cancel),
            other => panic!("an unexpected question: {other}"),
        };
        self.answered.lock().unwrap().push(message);
        Ok(answer)
    }
}

/// Two calls in flight on one session, each waiting on its own question, answered in the
/// opposite order to the one they were asked in: each call gets its own answers and ends with
/// its own result.
#[tokio::test]
async fn two_calls_on_one_session_answered_in_reverse_order_each_get_their_own_answers()
-> anyhow::Result<()> {
    bounded(async {
        let user = Crossed::default();
        let client = on_a_pipe(wizard(), &user).await?;
        let call = |team: &str| {
            let arguments: JsonObject = serde_json::from_value(json!({"team": team})).unwrap();
            client.call_tool(CallToolRequestParams::new("signup").with_arguments(arguments))
        };
        let (a, b) = tokio::join!(call("A"), call("B"));
        let (a, b) = (a?, b?);
        let arrived = user.arrived.lock().unwrap().clone();
        // The confirmation each call asked names the plan it got.
        let mut confirmations = arrived["Sign"].clone();
        confirmations.sort();
        let plan_of_ann = match confirmations.as_slice() {
            [ann, bob]
                if ann == "Sign Ann up for free?" && bob == "Sign Bob up for enterprise?" =>
            {
                "free"
            }
            [ann, bob]
                if ann == "Sign Ann up for enterprise?" && bob == "Sign Bob up for free?" =>
            {
                "enterprise"
            }
            other => panic!("each call must get its own plan: {other:?}"),
        };
        assert_eq!(a.is_error, Some(false), "{a:?}");
        assert_eq!(
            text_of(&a),
            format!("Signed up Ann to A on the {plan_of_ann} plan")
        );
        assert_eq!(b.is_error, Some(true), "{b:?}");
        assert_eq!(text_of(&b), "Signup cancelled at confirm");
        // Every kind was asked by both calls and answered last-asked first.
        let answered = user.answered.lock().unwrap().clone();
        assert_eq!(answered.len(), 6, "{answered:?}");
        for kind in ["Welcome", "Which", "Sign"] {
            let asked = &arrived[kind];
            let order: Vec<&String> = answered.iter().filter(|m| asked.contains(m)).collect();
            assert_eq!(order, [&asked[1], &asked[0]], "{kind}");
        }
        Ok(())
    })
    .await
}

/// A 2025-11-25 client that leaves the first question it gets unanswered until the server
/// withdraws it, and answers every later one as [`LegacyUser`] does.
#[derive(Clone, Default)]
struct HoldsTheFirst {
    user: LegacyUser,
    held: Arc<Mutex<Option<String>>>,
    withdrawn: Arc<std::sync::atomic::AtomicBool>,
}

impl ClientHandler for HoldsTheFirst {
    fn get_info(&self) -> ClientConfig {
        self.user.get_info()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let first = {
            let mut held = self.held.lock().unwrap();
            let first = held.is_none();
            if first {
                *held = form_message(&request);
            }
            first
        };
        if !first {
            return self.user.create_elicitation(request, context).await;
        }
        context.ct.cancelled().await;
        self.withdrawn
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(ElicitResult::new(ElicitationAction::Cancel))
    }
}

/// The client cancels a call while its question waits; a new call on the same session then
/// asks its own questions and ends with its result.
#[tokio::test]
async fn a_call_after_a_cancelled_one_on_the_same_session_runs_to_its_end() -> anyhow::Result<()> {
    bounded(async {
        let user = HoldsTheFirst::default();
        let client = on_a_pipe(wizard(), &user).await?;
        let arguments: JsonObject = serde_json::from_value(json!({"team": "Go"}))?;
        let call = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new("signup").with_arguments(arguments),
        ));
        let handle = client
            .send_request_with_option(call, PeerRequestOptions::no_options())
            .await?;
        until("the first question", WAIT, || {
            user.held.lock().unwrap().is_some()
        })
        .await?;
        handle.cancel(Some("the user moved on".to_owned())).await?;
        until("the question withdrawn", WAIT, || {
            user.withdrawn.load(std::sync::atomic::Ordering::SeqCst)
        })
        .await?;
        assert_eq!(
            user.held.lock().unwrap().as_deref(),
            Some("Welcome to Go! What should we call you?")
        );
        sign_up(&client, &user.user).await;
        Ok(())
    })
    .await
}

/// A 2025-11-25 client that accepts the profile question with content that breaks its schema:
/// `bad[n]` the n-th time it is asked, then the last of `bad` again, or with `then_fit`, a name
/// that fits. It answers every other question as [`LegacyUser`] does.
#[derive(Clone, Default)]
struct Misfit {
    user: LegacyUser,
    bad: Vec<Value>,
    then_fit: bool,
    profiles: Arc<Mutex<usize>>,
}

impl ClientHandler for Misfit {
    fn get_info(&self) -> ClientConfig {
        self.user.get_info()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let Some(message) = form_message(&request) else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        if message.starts_with("Welcome") {
            let asked = {
                let mut profiles = self.profiles.lock().unwrap();
                *profiles += 1;
                *profiles
            };
            let bad = match self.bad.get(asked - 1) {
                Some(bad) => Some(bad),
                None if self.then_fit => None,
                None => self.bad.last(),
            };
            if let Some(bad) = bad {
                self.user.asked.lock().unwrap().push(message);
                return Ok(ElicitResult::new(ElicitationAction::Accept).with_content(bad.clone()));
            }
        }
        self.user.create_elicitation(request, context).await
    }
}

/// A client that accepts with content of the wrong type, then without a required field, is asked
/// the same question again each time (README: "An answer that does not fit is asked again at
/// once"), and its fitting third answer goes on to the tool's result.
#[tokio::test]
async fn an_answer_of_the_wrong_type_or_missing_a_field_is_asked_again_until_it_fits()
-> anyhow::Result<()> {
    bounded(async {
        let user = Misfit {
            bad: vec![json!({"name": 42}), json!({"email": "ada@example.com"})],
            then_fit: true,
            ..Misfit::default()
        };
        let client = on_a_pipe(wizard(), &user).await?;
        let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"}))?;
        let result = client
            .call_tool(CallToolRequestParams::new("signup").with_arguments(arguments))
            .await?;
        assert_eq!(text_of(&result), "Signed up Ada to Rust on the pro plan");
        let welcome = "Welcome to Rust! What should we call you?";
        assert_eq!(
            *user.user.asked.lock().unwrap(),
            [
                welcome,
                welcome,
                welcome,
                "Which plan would you like?",
                "Sign Ada up for pro?"
            ]
        );
        Ok(())
    })
    .await
}

/// An answer that never fits ends at the round cap with the README's message, which says why
/// without the values sent: a wrong type, then a missing required field.
#[tokio::test]
async fn the_round_cap_names_a_wrong_type_and_a_missing_field() -> anyhow::Result<()> {
    bounded(async {
        for (bad, why) in [
            (
                json!({"name": 42}),
                "the form content does not fit: at `name`: invalid type, expected a string",
            ),
            (
                json!({"email": "ada@example.com"}),
                "the form content does not fit: missing field `name`",
            ),
        ] {
            let engine = engine().max_rounds(2).build()?;
            let user = Misfit {
                bad: vec![bad],
                ..Misfit::default()
            };
            let client = on_a_pipe(Bridged::new(Wizard::new(engine)), &user).await?;
            let error = signup_fails(&client).await?;
            assert_eq!(error.code, rmcp::model::ErrorCode::INTERNAL_ERROR);
            assert_eq!(
                error.message,
                format!(
                    "this call took more than 2 rounds (the last answers did not fit: \
                     [\"profile\"]: {why}); call the tool again"
                )
            );
            assert!(!error.message.contains("ada@example.com") && !error.message.contains("42"));
            assert_eq!(user.user.asked.lock().unwrap().len(), 2);
        }
        Ok(())
    })
    .await
}

/// A 2025-11-25 client that takes `delay` over each question, counting them as they come, and
/// then answers as [`LegacyUser`] does.
#[derive(Clone)]
struct Slow {
    user: LegacyUser,
    delay: std::time::Duration,
    questions: Arc<std::sync::atomic::AtomicUsize>,
}

impl Slow {
    fn taking(delay: std::time::Duration) -> Self {
        Self {
            user: LegacyUser::default(),
            delay,
            questions: Arc::default(),
        }
    }
}

impl ClientHandler for Slow {
    fn get_info(&self) -> ClientConfig {
        self.user.get_info()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.questions
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        tokio::time::sleep(self.delay).await;
        self.user.create_elicitation(request, context).await
    }
}

/// A client that takes a while over each question, though less than the state's TTL, gets the
/// tool's result, even when the whole call takes longer than the TTL.
#[tokio::test]
async fn a_client_slower_than_a_moment_but_within_the_ttl_gets_the_result() -> anyhow::Result<()> {
    bounded(async {
        let ttl = std::time::Duration::from_secs(3);
        let engine = engine().ttl(ttl).build()?;
        let user = Slow::taking(std::time::Duration::from_millis(1500));
        let client = on_a_pipe(Bridged::new(Wizard::new(engine)), &user).await?;
        let started = std::time::Instant::now();
        sign_up(&client, &user.user).await;
        assert!(started.elapsed() > ttl, "{:?}", started.elapsed());
        Ok(())
    })
    .await
}

/// Sampling and roots questions the client refuses. Both are deprecated by SEP-2577, and a 2025
/// client still answers them.
#[allow(deprecated)]
mod refused {
    use super::*;
    use mrtr_examples::conformance::Conformance;
    use rmcp::model::{
        CreateMessageRequestParams, CreateMessageResult, ErrorCode, ListRootsResult,
    };

    /// A 2025-11-25 client that declares sampling and roots, then refuses both: the user
    /// rejects the sampling (as the SDKs' clients report it, an error of the request), and
    /// `roots/list` fails.
    #[derive(Clone)]
    struct Refusing;

    impl ClientHandler for Refusing {
        fn get_info(&self) -> ClientConfig {
            let capabilities = ClientCapabilities::builder()
                .enable_elicitation()
                .enable_sampling()
                .enable_roots()
                .build();
            let mut config = ClientConfig::new(capabilities, Implementation::new("refusing", "1"));
            config.protocol_version = ProtocolVersion::V_2025_11_25;
            config
        }

        async fn create_message(
            &self,
            _: CreateMessageRequestParams,
            _: RequestContext<RoleClient>,
        ) -> Result<CreateMessageResult, ErrorData> {
            Err(ErrorData::new(
                ErrorCode(-1),
                "User rejected sampling request",
                None,
            ))
        }

        async fn list_roots(
            &self,
            _: RequestContext<RoleClient>,
        ) -> Result<ListRootsResult, ErrorData> {
            Err(ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                "the workspace is not open",
                None,
            ))
        }
    }

    /// A rejected sampling and a failed `roots/list` each end the tool at once with the
    /// README's `-32603`, naming the question and carrying the client's own error.
    #[tokio::test]
    async fn a_rejected_sampling_or_a_failed_roots_list_ends_the_call_as_documented()
    -> anyhow::Result<()> {
        bounded(async {
            let server = Bridged::new(Conformance::new(engine().build()?));
            let client = on_a_pipe(server, &Refusing).await?;
            for (tool, key, code, message) in [
                (
                    "test_input_required_result_sampling",
                    "capital_question",
                    -1,
                    "User rejected sampling request",
                ),
                (
                    "test_input_required_result_list_roots",
                    "client_roots",
                    -32603,
                    "the workspace is not open",
                ),
            ] {
                let error = match client.call_tool(CallToolRequestParams::new(tool)).await {
                    Err(rmcp::ServiceError::McpError(error)) => error,
                    other => panic!("{tool}: expected a JSON-RPC error, got {other:?}"),
                };
                assert_eq!(error.code, ErrorCode::INTERNAL_ERROR, "{error:?}");
                assert_eq!(
                    error.message,
                    format!("the client answered `{key}` with an error, so the call cannot go on")
                );
                assert_eq!(
                    error.data,
                    Some(json!({
                        "key": key,
                        "clientError": {"code": code, "message": message},
                    }))
                );
            }
            Ok(())
        })
        .await
    }
}

/// A client that answers each question in 2.5 s, within the 3 s TTL, on a call whose flow may
/// last 4 s: its second question waits only until the flow's deadline, and the call ends then
/// with a `-32603` that says so, not with an error about a `requestState` the client never sent
/// after the user answered a question that could no longer count.
#[tokio::test]
async fn a_question_waits_no_longer_than_the_flow_lifetime_left() -> anyhow::Result<()> {
    bounded(async {
        let engine = engine()
            .ttl(std::time::Duration::from_secs(3))
            .flow_lifetime(std::time::Duration::from_secs(4))
            .build()?;
        let user = Slow::taking(std::time::Duration::from_millis(2500));
        let client = on_a_pipe(Bridged::new(Wizard::new(engine)), &user).await?;
        let error = signup_fails(&client).await?;
        assert_eq!(
            error.code,
            rmcp::model::ErrorCode::INTERNAL_ERROR,
            "{error:?}"
        );
        assert_eq!(
            error.message,
            "the client did not answer `plan` before the call reached its time limit (4s); call \
             the tool again"
        );
        // Two asked, the first answered.
        assert_eq!(user.questions.load(std::sync::atomic::Ordering::SeqCst), 2);
        assert_eq!(
            *user.user.asked.lock().unwrap(),
            ["Welcome to Rust! What should we call you?"]
        );
        Ok(())
    })
    .await
}
