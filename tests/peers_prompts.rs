//! Prompts and resources that ask questions, driven by the official SDK clients on every
//! channel the README claims for them: 2026-07-28 input-required rounds (the Python SDK and the
//! TypeScript SDK v2, `tests/peers/*/drive_prompts.*` with `--native` / `--v2`) and a
//! 2025-11-25 session, where [`mrtr::Bridged`] sends each question as an `elicitation/create`
//! request (the Python SDK's `mode="legacy"` and the TypeScript SDK v1, `--legacy` / `--v1`),
//! over Streamable HTTP and over stdio (`notes-stdio`, launched by the SDK).
//! The server takes prompt arguments, asks twice, asks a wrong answer again, and serves a URI
//! template; declines and cancels reach the client as the `-32602` the prompt maps them to.

use mrtr_tests::{
    clock::TestClock,
    driver_output::accept,
    loopback::Served,
    notes::{Notes, WORDS},
};
use serde_json::{Value, json};

/// A client and the channel it takes.
#[derive(Debug, Clone, Copy)]
enum Peer {
    /// The Python SDK on 2026-07-28 rounds.
    PythonNative,
    /// The Python SDK with `mode="legacy"`, on a 2025-11-25 session over Streamable HTTP.
    PythonLegacy,
    /// The same over stdio, the server (`notes-stdio`) launched by the SDK.
    PythonLegacyStdio,
    /// The TypeScript SDK v2 on 2026-07-28 rounds.
    TypeScriptV2,
    /// The TypeScript SDK v1, on a 2025-11-25 session over Streamable HTTP.
    TypeScriptV1,
    /// The same over stdio, the server (`notes-stdio`) launched by the SDK.
    TypeScriptV1Stdio,
}

impl Peer {
    const ALL: [Peer; 6] = [
        Peer::PythonNative,
        Peer::PythonLegacy,
        Peer::PythonLegacyStdio,
        Peer::TypeScriptV2,
        Peer::TypeScriptV1,
        Peer::TypeScriptV1Stdio,
    ];

    /// The clients on a 2025-11-25 session.
    const LEGACY: [Peer; 4] = [
        Peer::PythonLegacy,
        Peer::PythonLegacyStdio,
        Peer::TypeScriptV1,
        Peer::TypeScriptV1Stdio,
    ];

    fn protocol_version(self) -> &'static str {
        match self {
            Peer::PythonNative | Peer::TypeScriptV2 => "2026-07-28",
            _ => "2025-11-25",
        }
    }

    /// The driver's flag for this peer, and whether it reaches the server over stdio.
    fn flag(self) -> (&'static str, bool) {
        match self {
            Peer::PythonNative => ("--native", false),
            Peer::PythonLegacy => ("--legacy", false),
            Peer::PythonLegacyStdio => ("--legacy-stdio", true),
            Peer::TypeScriptV2 => ("--v2", false),
            Peer::TypeScriptV1 => ("--v1", false),
            Peer::TypeScriptV1Stdio => ("--v1-stdio", true),
        }
    }
}

/// Runs the peer's `drive_prompts` on `scenario` against a fresh server: its JSON output, after
/// checking the protocol version it spoke.
async fn drive(peer: Peer, scenario: &Value) -> anyhow::Result<Value> {
    let (program, script) = match peer {
        Peer::PythonNative | Peer::PythonLegacy | Peer::PythonLegacyStdio => (
            tokio::task::spawn_blocking(mrtr_tests::peers::python).await?,
            "python/drive_prompts.py",
        ),
        _ => (
            tokio::task::spawn_blocking(mrtr_tests::peers::node).await?,
            "typescript/drive_prompts.mjs",
        ),
    };
    let (flag, stdio) = peer.flag();
    // Kept until the driver is done; dropping it stops the server.
    let mut served = None;
    let target = if stdio {
        env!("CARGO_BIN_EXE_notes-stdio").to_owned()
    } else {
        let server = Served::start(Notes::new(TestClock::default().engine())).await?;
        let url = server.url.clone();
        served = Some(server);
        url
    };
    let script = mrtr_tests::peers::dir().join(script);
    let output =
        mrtr_tests::peers::run_driver(&program, &script, &[flag, &target, &scenario.to_string()])
            .await?;
    drop(served);
    assert_eq!(
        output["protocolVersion"],
        peer.protocol_version(),
        "{peer:?}: {output}"
    );
    Ok(output)
}

fn answer(message: &str, reply: Value) -> Value {
    json!({ "message": message, "reply": reply })
}

/// The messages the call was asked, in order.
fn asked(call: &Value) -> Vec<&str> {
    call["asked"]
        .as_array()
        .expect("asked is an array")
        .iter()
        .map(|question| question["message"].as_str().expect("a message"))
        .collect()
}

const ABOUT_WHAT: &str = "A brief for ops: about what?";

/// The brief, with its prompt argument, two questions, and an answer out of the form's range
/// asked again; then two URIs of the template, each asking its own question.
async fn prompt_and_template_complete(peer: Peer) -> anyhow::Result<()> {
    let scenario = json!({
        "calls": [
            { "prompt": "brief", "arguments": { "audience": "ops" } },
            { "resource": "notes://7" },
            { "resource": "notes://8" },
        ],
        "answers": [
            answer(ABOUT_WHAT, accept(json!({ "topic": "caching" }))),
            // 5 is below the form's minimum of 10: asked again.
            { "message": WORDS, "replies": [accept(json!({ "words": 5 })), accept(json!({ "words": 200 }))] },
            answer("Who reads notes://7?", accept(json!({ "name": "Ada" }))),
            answer("Who reads notes://8?", accept(json!({ "name": "Grace" }))),
        ],
    });
    let output = drive(peer, &scenario).await?;
    let [brief, seven, eight] = output["calls"].as_array().expect("calls").as_slice() else {
        panic!("{peer:?}: three calls: {output}");
    };
    assert_eq!(
        asked(brief),
        [ABOUT_WHAT, WORDS, WORDS],
        "{peer:?}: {output}"
    );
    assert_eq!(
        brief["result"]["messages"],
        json!([{ "role": "user", "content": { "type": "text", "text": "Write a 200-word brief about caching for ops." } }]),
        "{peer:?}: {output}"
    );
    for (call, id, name) in [(seven, 7, "Ada"), (eight, 8, "Grace")] {
        assert_eq!(
            asked(call),
            [format!("Who reads notes://{id}?")],
            "{peer:?}: {output}"
        );
        let contents = &call["result"]["contents"];
        assert_eq!(
            contents[0]["uri"],
            format!("notes://{id}"),
            "{peer:?}: {output}"
        );
        assert_eq!(
            contents[0]["text"],
            format!("note {id}, for {name}"),
            "{peer:?}: {output}"
        );
    }
    Ok(())
}

/// A decline of the prompt's first question and a cancel of the resource's each end the
/// request with the `-32602` they are mapped to, naming the question; nothing more is asked.
async fn declines_and_cancels_are_errors(peer: Peer) -> anyhow::Result<()> {
    let scenario = json!({
        "calls": [{ "prompt": "brief", "arguments": { "audience": "ops" } }, { "resource": "notes://7" }],
        "answers": [
            answer(ABOUT_WHAT, json!({ "action": "decline" })),
            answer("Who reads notes://7?", json!({ "action": "cancel" })),
        ],
    });
    let output = drive(peer, &scenario).await?;
    let [brief, note] = output["calls"].as_array().expect("calls").as_slice() else {
        panic!("{peer:?}: two calls: {output}");
    };
    assert_eq!(asked(brief), [ABOUT_WHAT], "{peer:?}: {output}");
    assert_eq!(brief["error"]["code"], -32602, "{peer:?}: {output}");
    assert_eq!(
        brief["error"]["message"], "the user declined `topic`",
        "{peer:?}: {output}"
    );
    assert_eq!(asked(note), ["Who reads notes://7?"], "{peer:?}: {output}");
    assert_eq!(note["error"]["code"], -32602, "{peer:?}: {output}");
    assert_eq!(
        note["error"]["message"], "the user cancelled `reader`",
        "{peer:?}: {output}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_client_gets_prompts_and_reads_templated_resources_that_ask() -> anyhow::Result<()> {
    for peer in Peer::ALL {
        prompt_and_template_complete(peer).await?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_client_sees_a_decline_or_cancel_as_the_error_it_maps_to() -> anyhow::Result<()> {
    for peer in Peer::ALL {
        declines_and_cancels_are_errors(peer).await?;
    }
    Ok(())
}

/// On a 2025-11-25 session, a client that gives up on a `prompts/get` while its question is
/// open (both SDKs send `notifications/cancelled`) has the question withdrawn: the server's own
/// `notifications/cancelled` aborts the SDK's elicitation handler. The same session then gets
/// the prompt again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_abandoned_on_a_session_withdraws_its_question() -> anyhow::Result<()> {
    for peer in Peer::LEGACY {
        let scenario = json!({
            "calls": [
                { "prompt": "brief", "arguments": { "audience": "ops" } },
                { "prompt": "brief", "arguments": { "audience": "ops" } },
            ],
            "answers": [
                { "message": ABOUT_WHAT, "replies": [{ "abort": true }, accept(json!({ "topic": "caching" }))] },
                answer(WORDS, accept(json!({ "words": 200 }))),
            ],
        });
        let output = drive(peer, &scenario).await?;
        let [abandoned, again] = output["calls"].as_array().expect("calls").as_slice() else {
            panic!("{peer:?}: two calls: {output}");
        };
        assert_eq!(abandoned["aborted"], true, "{peer:?}: {output}");
        assert_eq!(
            abandoned["asked"][0]["message"], ABOUT_WHAT,
            "{peer:?}: {output}"
        );
        assert_eq!(
            abandoned["asked"][0]["withdrawn"], true,
            "{peer:?}: {output}"
        );
        assert_eq!(asked(again), [ABOUT_WHAT, WORDS], "{peer:?}: {output}");
        assert_eq!(
            again["result"]["messages"][0]["content"]["text"],
            "Write a 200-word brief about caching for ops.",
            "{peer:?}: {output}"
        );
    }
    Ok(())
}

/// A client that declares no elicitation is never asked. On a 2025-11-25 session the prompt
/// and the resource end with `-32603` naming the capability, as the README says; on
/// 2026-07-28 with `-32021` naming what was missing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_elicitation_gets_an_error_naming_it() -> anyhow::Result<()> {
    let scenario = json!({
        "calls": [{ "prompt": "brief", "arguments": { "audience": "ops" } }, { "resource": "notes://7" }],
        "answers": [],
        "elicitation": false,
    });
    for peer in Peer::ALL {
        let output = drive(peer, &scenario).await?;
        let (code, message) = match peer.protocol_version() {
            "2026-07-28" => (-32021, "Missing required client capability"),
            _ => (
                -32603,
                "Client does not support elicitation (required for elicitation/create)",
            ),
        };
        let calls = output["calls"].as_array().expect("calls");
        assert_eq!(calls.len(), 2, "{peer:?}: {output}");
        for call in calls {
            assert!(asked(call).is_empty(), "{peer:?}: {output}");
            assert_eq!(
                call["error"],
                json!({ "code": code, "message": message, "data": { "requiredCapabilities": { "elicitation": {} } } }),
                "{peer:?}: {output}"
            );
        }
    }
    Ok(())
}

/// On a 2025-11-25 session, a client whose elicitation handler fails ends the prompt or the
/// resource at once with `-32603`, naming the question and carrying the client's error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_error_on_a_session_ends_the_request_naming_the_question() -> anyhow::Result<()> {
    let scenario = json!({
        "calls": [{ "prompt": "brief", "arguments": { "audience": "ops" } }, { "resource": "notes://7" }],
        "answers": [
            answer(ABOUT_WHAT, json!({ "throw": "no form UI" })),
            answer("Who reads notes://7?", json!({ "throw": "no form UI" })),
        ],
    });
    for peer in Peer::LEGACY {
        let output = drive(peer, &scenario).await?;
        let [brief, note] = output["calls"].as_array().expect("calls").as_slice() else {
            panic!("{peer:?}: two calls: {output}");
        };
        for (call, key) in [(brief, "topic"), (note, "reader")] {
            assert_eq!(asked(call).len(), 1, "{peer:?}: {output}");
            let error = &call["error"];
            assert_eq!(error["code"], -32603, "{peer:?}: {output}");
            assert_eq!(
                error["message"],
                format!("the client answered `{key}` with an error, so the call cannot go on"),
                "{peer:?}: {output}"
            );
            assert_eq!(error["data"]["key"], key, "{peer:?}: {output}");
            // Each SDK picks its own code for a failed handler (Python 0, TypeScript -32603).
            assert!(
                error["data"]["clientError"]["code"].is_i64(),
                "{peer:?}: {output}"
            );
            assert_eq!(
                error["data"]["clientError"]["message"], "no form UI",
                "{peer:?}: {output}"
            );
        }
    }
    Ok(())
}

/// On a 2025-11-25 session, an answer that never fits is asked again up to the round cap (100
/// by default), and then the request fails with a message saying why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_answer_never_fixed_ends_at_the_round_cap_saying_why() -> anyhow::Result<()> {
    let scenario = json!({
        "calls": [{ "prompt": "brief", "arguments": { "audience": "ops" } }],
        "answers": [
            answer(ABOUT_WHAT, accept(json!({ "topic": "caching" }))),
            answer(WORDS, accept(json!({ "words": 5 }))),
        ],
    });
    for peer in Peer::LEGACY {
        let output = drive(peer, &scenario).await?;
        let call = &output["calls"][0];
        // One round for the topic, 99 for the words.
        let questions = asked(call);
        assert_eq!(questions.len(), 100, "{peer:?}: {output}");
        assert!(
            questions[1..].iter().all(|q| *q == WORDS),
            "{peer:?}: {output}"
        );
        assert_eq!(
            call["error"],
            json!({
                "code": -32603,
                "message": "this call took more than 100 rounds (the last answers did not fit: \
                            [\"words\"]: the answer breaks its schema: `words` is below its \
                            minimum, 10); get the prompt again",
            }),
            "{peer:?}: {output}"
        );
    }
    Ok(())
}

/// Two prompts and two resources of the template in flight at once, on one 2025-11-25 session
/// or one 2026-07-28 client: each question goes to its own request, and each request
/// completes with its own answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_and_resources_in_flight_together_each_get_their_own_answers() -> anyhow::Result<()>
{
    let scenario = json!({
        "calls": [
            { "prompt": "brief", "arguments": { "audience": "ops" } },
            { "prompt": "brief", "arguments": { "audience": "devs" } },
            { "resource": "notes://7" },
            { "resource": "notes://8" },
        ],
        "answers": [
            answer(ABOUT_WHAT, accept(json!({ "topic": "caching" }))),
            answer("A brief for devs: about what?", accept(json!({ "topic": "testing" }))),
            answer(WORDS, accept(json!({ "words": 200 }))),
            answer("Who reads notes://7?", accept(json!({ "name": "Ada" }))),
            answer("Who reads notes://8?", accept(json!({ "name": "Grace" }))),
        ],
        "parallel": true,
    });
    for peer in Peer::ALL {
        let output = drive(peer, &scenario).await?;
        let mut questions = asked(&output);
        questions.sort_unstable();
        assert_eq!(
            questions,
            [
                "A brief for devs: about what?",
                ABOUT_WHAT,
                WORDS,
                WORDS,
                "Who reads notes://7?",
                "Who reads notes://8?"
            ],
            "{peer:?}: {output}"
        );
        let texts: Vec<&Value> = output["calls"]
            .as_array()
            .expect("calls")
            .iter()
            .map(|call| {
                let result = &call["result"];
                if result["messages"].is_array() {
                    &result["messages"][0]["content"]["text"]
                } else {
                    &result["contents"][0]["text"]
                }
            })
            .collect();
        assert_eq!(
            texts,
            [
                "Write a 200-word brief about caching for ops.",
                "Write a 200-word brief about testing for devs.",
                "note 7, for Ada",
                "note 8, for Grace"
            ],
            "{peer:?}: {output}"
        );
    }
    Ok(())
}

/// A prompt without its required argument is refused by rmcp before it runs, so nothing is
/// asked; a URI outside the template gets the server's not-found, which rmcp sends as
/// `-32002` on a 2025-11-25 session and as `-32602` on 2026-07-28 (SEP-2164).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_argument_or_unknown_uri_is_refused_before_anything_is_asked()
-> anyhow::Result<()> {
    let scenario = json!({
        "calls": [{ "prompt": "brief" }, { "resource": "other://1" }],
        "answers": [],
    });
    for peer in Peer::ALL {
        let output = drive(peer, &scenario).await?;
        let [brief, other] = output["calls"].as_array().expect("calls").as_slice() else {
            panic!("{peer:?}: two calls: {output}");
        };
        assert!(asked(brief).is_empty(), "{peer:?}: {output}");
        assert_eq!(
            brief["error"],
            json!({ "code": -32602, "message": "Missing required parameters: missing field `audience`" }),
            "{peer:?}: {output}"
        );
        let not_found = match peer.protocol_version() {
            "2026-07-28" => -32602,
            _ => -32002,
        };
        assert!(asked(other).is_empty(), "{peer:?}: {output}");
        assert_eq!(
            other["error"],
            json!({ "code": not_found, "message": "no such resource" }),
            "{peer:?}: {output}"
        );
    }
    Ok(())
}

/// A URI of the template that is not ASCII or carries a query and a fragment, and a prompt
/// argument with a newline and non-ASCII text, resume on every channel: on 2026-07-28 the
/// clients put the name or URI in the `Mcp-Name` header too, and the state is bound to them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unusual_uris_and_arguments_resume_on_every_channel() -> anyhow::Result<()> {
    let audience = "ops «ü»\n2";
    let scenario = json!({
        "calls": [
            { "resource": "notes://café" },
            { "resource": "notes://a%20b?x=1#f" },
            { "prompt": "brief", "arguments": { "audience": audience } },
        ],
        "answers": [
            { "properties": ["name"], "reply": accept(json!({ "name": "Ada" })) },
            { "properties": ["topic"], "reply": accept(json!({ "topic": "caching" })) },
            { "properties": ["words"], "reply": accept(json!({ "words": 20 })) },
        ],
    });
    for peer in Peer::ALL {
        let output = drive(peer, &scenario).await?;
        let [cafe, query, brief] = output["calls"].as_array().expect("calls").as_slice() else {
            panic!("{peer:?}: three calls: {output}");
        };
        for (call, id) in [(cafe, "café"), (query, "a%20b?x=1#f")] {
            assert_eq!(
                asked(call),
                [format!("Who reads notes://{id}?")],
                "{peer:?}: {output}"
            );
            let contents = &call["result"]["contents"][0];
            assert_eq!(
                contents["uri"],
                format!("notes://{id}"),
                "{peer:?}: {output}"
            );
            assert_eq!(
                contents["text"],
                format!("note {id}, for Ada"),
                "{peer:?}: {output}"
            );
        }
        assert_eq!(
            asked(brief),
            [
                format!("A brief for {audience}: about what?").as_str(),
                WORDS
            ],
            "{peer:?}: {output}"
        );
        assert_eq!(
            brief["result"]["messages"][0]["content"]["text"],
            format!("Write a 20-word brief about caching for {audience}."),
            "{peer:?}: {output}"
        );
    }
    Ok(())
}
