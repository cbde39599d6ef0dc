//! The buffers mrtr fills with saved locals are zeroized before their memory is given back,
//! including those left behind when a buffer grows. A global allocator scans every block as it
//! is freed for the saved form of a secret local; mrtr's own buffers are the only place that
//! form exists (postcard writes a string's length before its bytes; a value saved as JSON
//! writes it in quotes).

use std::{
    alloc::{GlobalAlloc, Layout, System},
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
    time::Duration,
};

use mrtr::{Engine, Form, ask, elicit, mrtr_tool};
use mrtr_tests::loopback::Loopback;
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolRequestParams, CallToolResponse, InputResponses, JsonObject, ServerCapabilities,
        ServerConfig,
    },
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// 31 bytes, so that postcard writes the length as the byte 0x1f, which no text contains.
const SECRET: &str = "ZEROIZE-ME-PLEASE-0123456789ABC";
/// Held inside a value saved as JSON, where it is written in quotes; made by the tool, so no
/// request carries it.
const JSON_SECRET: &str = "ZEROIZE-ME-PLEASE-0123456789ABC-JSON";

struct Scanning;

static SCANNING: AtomicBool = AtomicBool::new(false);
static FOUND: AtomicUsize = AtomicUsize::new(0);

impl Scanning {
    /// Counts `block` if it holds the saved form of the secret.
    unsafe fn scan(ptr: *const u8, size: usize) {
        if !SCANNING.load(Ordering::Relaxed) || size < SECRET.len() + 1 {
            return;
        }
        // SAFETY: `ptr` is a live block of `size` bytes, about to be freed.
        let block = unsafe { std::slice::from_raw_parts(ptr, size) };
        let postcard = block
            .windows(SECRET.len() + 1)
            .any(|window| window[0] == SECRET.len() as u8 && &window[1..] == SECRET.as_bytes());
        let json = block.windows(JSON_SECRET.len() + 2).any(|window| {
            window[0] == b'"'
                && window[JSON_SECRET.len() + 1] == b'"'
                && &window[1..=JSON_SECRET.len()] == JSON_SECRET.as_bytes()
        });
        if postcard || json {
            FOUND.fetch_add(1, Ordering::Relaxed);
        }
    }
}

// SAFETY: every call goes to `System`; the scan only reads blocks before they are freed.
unsafe impl GlobalAlloc for Scanning {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe {
            Self::scan(ptr, layout.size());
            System.dealloc(ptr, layout)
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Not `System.realloc`: it may free the old block where the scan cannot see it.
        unsafe {
            let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
            let new = System.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}

#[global_allocator]
static ALLOCATOR: Scanning = Scanning;

#[derive(Deserialize, JsonSchema)]
struct Args {
    secret: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Go {
    go: bool,
}

/// Postcard cannot read it back (the skipped `note`), so it is saved as JSON.
#[derive(Serialize, Deserialize)]
struct Memo {
    text: String,
    /// Long enough that the JSON text outgrows its first block with the secret in it.
    filler: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

#[derive(Clone)]
struct Holder {
    tool_router: ToolRouter<Self>,
    engine: Engine,
}

#[tool_router]
impl Holder {
    #[mrtr_tool]
    #[tool(description = "Holds a secret and more across two asks")]
    async fn hold(&self, Parameters(args): Parameters<Args>) -> String {
        let secret = args.secret;
        let memo = Memo {
            text: format!("{secret}-JSON"),
            filler: "x".repeat(300),
            note: None,
        };
        // Saved after the secret, so the buffer grows with the secret already in it.
        let padding: Vec<u64> = (0..200).map(|n| n * 1_000_003).collect();
        ask!(first = elicit::<Go>("Go?"));
        let more: Vec<String> = (0..50).map(|n| format!("item {n}")).collect();
        ask!(second = elicit::<Go>("Go on?"));
        format!(
            "{} {} {} {}",
            secret.len(),
            memo.text.len(),
            padding.len(),
            more.len()
        )
    }
}

impl mrtr::MrtrServer for Holder {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Holder {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

async fn flow(engine: Engine) -> anyhow::Result<()> {
    let served = Loopback::start(Holder {
        tool_router: Holder::tool_router(),
        engine,
    })
    .await?;
    let call = |state: Option<String>, key: &str| {
        let mut arguments = JsonObject::new();
        arguments.insert("secret".to_owned(), json!(SECRET));
        let mut params = CallToolRequestParams::new("hold").with_arguments(arguments);
        params.request_state = state;
        params.input_responses = Some(InputResponses::from([(
            key.to_owned(),
            json!({"action": "accept", "content": {"go": true}}),
        )]));
        params
    };
    let mut first = call(None, "first");
    first.input_responses = None;
    let mut state = None;
    for mut params in [first, call(None, "first")] {
        params.request_state = state.take();
        match served.client.call_tool_once(params).await? {
            CallToolResponse::InputRequired(input) => state = input.request_state,
            other => anyhow::bail!("expected a question, got {other:?}"),
        }
    }
    match served.client.call_tool_once(call(state, "second")).await? {
        CallToolResponse::Complete(_) => Ok(()),
        other => anyhow::bail!("expected the result, got {other:?}"),
    }
}

#[tokio::test]
async fn no_freed_block_holds_a_saved_local() {
    the_scan_finds_an_unzeroized_saved_form();
    let key = mrtr_tests::keys::test_key(31);
    for sign_only in [false, true] {
        let builder = Engine::builder().key(1, key).without_principal();
        let engine = match sign_only {
            true => builder.sign_only().build().unwrap(),
            false => builder.build().unwrap(),
        };
        FOUND.store(0, Ordering::SeqCst);
        SCANNING.store(true, Ordering::SeqCst);
        tokio::time::timeout(Duration::from_secs(30), flow(engine))
            .await
            .expect("finished in time")
            .unwrap();
        SCANNING.store(false, Ordering::SeqCst);
        assert_eq!(
            FOUND.load(Ordering::SeqCst),
            0,
            "blocks freed with a saved local in them (sign_only: {sign_only})"
        );
    }
}

/// The scan itself works: a saved form freed without zeroizing is found.
fn the_scan_finds_an_unzeroized_saved_form() {
    FOUND.store(0, Ordering::SeqCst);
    SCANNING.store(true, Ordering::SeqCst);
    let saved = postcard_like(SECRET);
    drop(std::hint::black_box(saved));
    let json = format!("{{\"text\":\"{JSON_SECRET}\"}}");
    drop(std::hint::black_box(json));
    SCANNING.store(false, Ordering::SeqCst);
    assert!(
        FOUND.load(Ordering::SeqCst) >= 2,
        "the scan missed a saved form"
    );
}

fn postcard_like(text: &str) -> Vec<u8> {
    let mut bytes = vec![text.len() as u8];
    bytes.extend_from_slice(text.as_bytes());
    bytes
}
