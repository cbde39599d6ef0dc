//! The plain tools: nothing to ask, so plain rmcp `#[tool]`s. Names and contents are the ones
//! the `tools-call-*`, `json-schema-2020-12`, `server-stateless` and
//! `http-custom-header-server-validation` scenarios spell out.

use std::{sync::Arc, time::Duration};

use rmcp::{
    ErrorData, Peer, RoleServer,
    handler::server::wrapper::Parameters,
    model::{
        CallToolResult, ContentBlock, JsonObject, ProgressNotificationParam, RequestMetaObject,
        ResourceContents,
    },
    tool, tool_router,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::Conformance;

/// A 1x1 red PNG.
pub const PNG_BASE64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

/// One millisecond of silence: a WAV file, 8 kHz mono 8-bit.
pub const WAV_BASE64: &str =
    "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

/// The input schema `json-schema-2020-12` checks keyword by keyword (SEP-1613, SEP-2106).
fn json_schema_2020_12() -> Arc<JsonObject> {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "city": {"type": "string"}
                }
            }
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    match schema {
        serde_json::Value::Object(object) => Arc::new(object),
        _ => unreachable!("the schema literal is an object"),
    }
}

/// Arguments of `test_custom_header`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RegionArgs {
    /// Where to run; clients mirror it into the `Mcp-Param-Region` header (SEP-2243).
    #[schemars(extend("x-mcp-header" = "Region"))]
    pub region: String,
}

#[tool_router(router = plain_tools, vis = "pub(super)")]
impl Conformance {
    /// `tools-call-simple-text`.
    #[tool(description = "Returns one text block")]
    async fn test_simple_text(&self) -> String {
        "This is a simple text response for testing.".to_owned()
    }

    /// `tools-call-image`.
    #[tool(description = "Returns a 1x1 PNG image")]
    async fn test_image_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::image(PNG_BASE64, "image/png")])
    }

    /// `tools-call-audio`.
    #[tool(description = "Returns a short WAV clip")]
    async fn test_audio_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::audio(WAV_BASE64, "audio/wav")])
    }

    /// `tools-call-embedded-resource`.
    #[tool(description = "Returns an embedded text resource")]
    async fn test_embedded_resource(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::resource(
            ResourceContents::text(
                "This is an embedded resource content.",
                "test://embedded-resource",
            )
            .with_mime_type("text/plain"),
        )])
    }

    /// `tools-call-mixed-content`.
    #[tool(description = "Returns text, an image and an embedded resource")]
    async fn test_multiple_content_types(&self) -> CallToolResult {
        CallToolResult::success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PNG_BASE64, "image/png"),
            ContentBlock::resource(
                ResourceContents::text(
                    r#"{"test":"data","value":123}"#,
                    "test://mixed-content-resource",
                )
                .with_mime_type("application/json"),
            ),
        ])
    }

    /// `tools-call-error`: a tool error is a result with `isError: true`, not a JSON-RPC error.
    #[tool(description = "Always fails, as a tool error")]
    async fn test_error_handling(&self) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(
            "This tool intentionally returns an error for testing",
        )])
    }

    /// `tools-call-with-progress`: 0, 50 and 100 of 100, 50 ms apart, when the request carries
    /// a progress token. rmcp then answers on an SSE stream: the notifications, then the result.
    #[tool(description = "Reports progress 0/100, 50/100, 100/100")]
    async fn test_tool_with_progress(
        &self,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        let token = meta.get_progress_token();
        for (step, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if step > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            if let Some(token) = &token {
                peer.notify_progress(
                    ProgressNotificationParam::new(token.clone(), progress).with_total(100.0),
                )
                .await
                .map_err(|e| ErrorData::internal_error(format!("progress: {e}"), None))?;
            }
        }
        Ok("Progress reported: 100/100".to_owned())
    }

    /// `json-schema-2020-12`: the schema goes out exactly as written.
    #[tool(
        description = "Tool with JSON Schema 2020-12 features",
        input_schema = json_schema_2020_12()
    )]
    async fn json_schema_2020_12_tool(&self) -> String {
        "JSON Schema 2020-12 tool called".to_owned()
    }

    /// `server-stateless` (`sep-2575-server-no-log-without-loglevel`): logs only when the
    /// request sets `_meta["io.modelcontextprotocol/logLevel"]` to `debug` or `info`.
    #[tool(description = "Logs one info message if the request asks for logs")]
    #[allow(deprecated)] // logging is deprecated by SEP-2577, and so are rmcp's types for it
    async fn test_logging_tool(
        &self,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
        let wanted = matches!(
            meta.log_level(),
            Some(LoggingLevel::Debug | LoggingLevel::Info)
        );
        if wanted {
            peer.notify_logging_message(LoggingMessageNotificationParam::new(
                LoggingLevel::Info,
                json!("test_logging_tool ran"),
            ))
            .await
            .map_err(|e| ErrorData::internal_error(format!("log: {e}"), None))?;
        }
        Ok(format!("logged: {wanted}"))
    }

    /// `http-custom-header-server-validation`: `region` carries `x-mcp-header`, so rmcp checks
    /// the `Mcp-Param-Region` header against it before the call is routed.
    #[tool(description = "Echoes the region it runs in (mirrored in the Mcp-Param-Region header)")]
    async fn test_custom_header(&self, Parameters(args): Parameters<RegionArgs>) -> String {
        format!("region: {}", args.region)
    }
}
