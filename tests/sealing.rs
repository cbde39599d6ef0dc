//! What a sealed state is bound to, through real rounds: a state opens only in the deployment
//! (audience) that sealed it, and only for a build of the tool that reads back exactly what
//! was saved, even when a pinned `version` keeps the fingerprint the same.

use std::time::Duration;

use mrtr::{Engine, Form, ask, elicit, mrtr_tool};
use mrtr_tests::loopback::Loopback;
use rmcp::{
    ServerHandler,
    handler::server::router::tool::ToolRouter,
    model::{
        CallToolRequestParams, CallToolResponse, ErrorCode, InputResponses, ServerCapabilities,
        ServerConfig,
    },
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Go {
    go: bool,
}

/// A server whose one tool, `t`, pins `version = "1"` and holds `$held` across its one ask:
/// several builds of "the same" tool.
macro_rules! build_of_t {
    ($server:ident, |$this:ident| $held:expr => $result:expr) => {
        #[derive(Clone)]
        struct $server {
            tool_router: ToolRouter<Self>,
            engine: Engine,
        }

        #[tool_router]
        impl $server {
            #[mrtr_tool(version = "1")]
            #[tool(description = "Holds something across an ask")]
            async fn t(&self) -> String {
                let $this = $held;
                ask!(go = elicit::<Go>("Go?"));
                format!("{:?}", $result)
            }
        }

        impl mrtr::MrtrServer for $server {
            fn mrtr_engine(&self) -> &Engine {
                &self.engine
            }
        }

        #[tool_handler(router = self.tool_router)]
        impl ServerHandler for $server {
            fn get_info(&self) -> ServerConfig {
                ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            }
        }

        impl $server {
            fn new(engine: Engine) -> Self {
                Self {
                    tool_router: Self::tool_router(),
                    engine,
                }
            }
        }
    };
}

build_of_t!(HoldsU32, |held| 5u32 => held);
build_of_t!(HoldsU64, |held| 5u64 => held);
build_of_t!(HoldsTwo, |held| (5u32, String::from("more")) => held);
build_of_t!(HoldsBytes, |held| vec![b'x'; 3] => held);
build_of_t!(HoldsText, |held| String::from("xxx") => held);

fn engine(audience: &str) -> Engine {
    Engine::builder()
        .key(1, mrtr_tests::keys::test_key(40))
        .audience(audience)
        .without_principal()
        .build()
        .unwrap()
}

async fn bounded<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), f)
        .await
        .expect("finished in time")
}

/// The first round's state from `sealer`, then the retry with it on `opener`: `Ok(text)` if
/// the call completed, `Err(code)` if it was refused.
async fn across<A, B>(sealer: A, opener: B) -> Result<String, ErrorCode>
where
    A: ServerHandler + mrtr::MrtrServer + Clone + Send + Sync + 'static,
    B: ServerHandler + mrtr::MrtrServer + Clone + Send + Sync + 'static,
{
    let sealer = Loopback::start(sealer).await.unwrap();
    let opener = Loopback::start(opener).await.unwrap();
    let CallToolResponse::InputRequired(first) = sealer
        .client
        .call_tool_once(CallToolRequestParams::new("t"))
        .await
        .unwrap()
    else {
        panic!("expected a question");
    };
    let mut retry = CallToolRequestParams::new("t");
    retry.request_state = first.request_state;
    retry.input_responses = Some(InputResponses::from([(
        "go".to_owned(),
        json!({"action": "accept", "content": {"go": true}}),
    )]));
    match opener.client.call_tool_once(retry).await {
        Ok(CallToolResponse::Complete(result)) => Ok(mrtr_examples::demo::text_of(&result)),
        Ok(other) => panic!("expected a result or an error, got {other:?}"),
        Err(rmcp::ServiceError::McpError(error)) => Err(error.code),
        Err(other) => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_state_opens_only_in_the_deployment_that_sealed_it() {
    bounded(async {
        let same = across(
            HoldsU32::new(engine("staging")),
            HoldsU32::new(engine("staging")),
        );
        assert_eq!(same.await, Ok("5".to_owned()));
        let other = across(
            HoldsU32::new(engine("staging")),
            HoldsU32::new(engine("production")),
        );
        assert_eq!(other.await, Err(ErrorCode(-32602)));
    })
    .await;
}

#[tokio::test]
async fn a_build_that_reads_other_types_refuses_the_state_rather_than_misreading_it() {
    bounded(async {
        let e = || engine("");
        // The same build, on another instance: it resumes.
        assert_eq!(
            across(HoldsU32::new(e()), HoldsU32::new(e())).await,
            Ok("5".to_owned())
        );
        // `u32` and `u64` are the same bytes in postcard; `String` and `Vec<u8>` too.
        assert_eq!(
            across(HoldsU32::new(e()), HoldsU64::new(e())).await,
            Err(ErrorCode(-32602))
        );
        assert_eq!(
            across(HoldsText::new(e()), HoldsBytes::new(e())).await,
            Err(ErrorCode(-32602))
        );
        // A build that reads more, or less, than was saved.
        assert_eq!(
            across(HoldsU32::new(e()), HoldsTwo::new(e())).await,
            Err(ErrorCode(-32602))
        );
        assert_eq!(
            across(HoldsTwo::new(e()), HoldsU32::new(e())).await,
            Err(ErrorCode(-32602))
        );
    })
    .await;
}

/// Arguments that do not fit `Parameters<T>` are rmcp's to refuse, before mrtr opens the
/// state: a tool error, no tool code, and the state is not spent (README, "The sealed
/// requestState").
#[tokio::test]
async fn arguments_that_do_not_parse_leave_the_state_unspent() {
    bounded(async {
        let served = Loopback::start(mrtr_examples::wizard::Wizard::new(engine("a")))
            .await
            .unwrap();
        let call = |arguments: serde_json::Value| {
            CallToolRequestParams::new("signup")
                .with_arguments(arguments.as_object().cloned().unwrap())
        };
        let CallToolResponse::InputRequired(first) = served
            .client
            .call_tool_once(call(json!({"team": "Rust"})))
            .await
            .unwrap()
        else {
            panic!("expected a question");
        };
        let retry = |arguments| {
            let mut retry = call(arguments);
            retry.request_state = first.request_state.clone();
            let profile = json!({"action": "accept", "content": {"name": "Ada"}});
            retry.input_responses = Some(InputResponses::from([("profile".to_owned(), profile)]));
            retry
        };
        let refused = served
            .client
            .call_tool_once(retry(json!({"team": 7})))
            .await;
        let Ok(CallToolResponse::Complete(refused)) = refused else {
            panic!("expected rmcp's tool error, got {refused:?}");
        };
        assert_eq!(refused.is_error, Some(true), "{refused:?}");
        assert!(
            format!("{:?}", refused.content).contains("failed to deserialize parameters"),
            "{refused:?}"
        );
        let next = served
            .client
            .call_tool_once(retry(json!({"team": "Rust"})))
            .await
            .unwrap();
        let CallToolResponse::InputRequired(next) = next else {
            panic!("expected the next question, got {next:?}");
        };
        assert!(
            next.input_requests
                .as_ref()
                .is_some_and(|asked| asked.contains_key("plan")),
            "{next:?}"
        );
    })
    .await;
}
