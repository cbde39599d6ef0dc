//! The resources of the `resources-*` scenarios: two static ones and one template. They are
//! plain data, so `resources/read` dispatches on the URI without a machine.

use rmcp::{
    ErrorData,
    model::{CacheScope, ReadResourceResult, Resource, ResourceContents, ResourceTemplate},
};
use serde_json::json;

use super::tools::PNG_BASE64;

/// `resources-read-text`.
pub const STATIC_TEXT: &str = "test://static-text";
/// `resources-read-binary`.
pub const STATIC_BINARY: &str = "test://static-binary";
/// `resources-templates-read`.
pub const TEMPLATE: &str = "test://template/{id}/data";

/// How long a client may reuse a read of these never-changing resources (SEP-2549).
const FRESH_MS: u64 = 60_000;

/// `resources/list`: the direct resources, each with a description.
pub fn list() -> Vec<Resource> {
    vec![
        Resource::new(STATIC_TEXT, "static-text")
            .with_description("A static text resource")
            .with_mime_type("text/plain"),
        Resource::new(STATIC_BINARY, "static-binary")
            .with_description("A static binary resource: a 1x1 PNG")
            .with_mime_type("image/png"),
    ]
}

/// `resources/templates/list`.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(TEMPLATE, "template-data")
            .with_description("JSON data for the given id")
            .with_mime_type("application/json"),
    ]
}

/// `resources/read`. An unknown URI is `-32602` with the URI in `data`, never empty contents
/// (SEP-2164).
pub fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let contents = match uri {
        STATIC_TEXT => {
            ResourceContents::text("This is the content of the static text resource.", uri)
                .with_mime_type("text/plain")
        }
        STATIC_BINARY => ResourceContents::blob(PNG_BASE64, uri).with_mime_type("image/png"),
        _ => match template_id(uri) {
            Some(id) => ResourceContents::text(
                json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                    .to_string(),
                uri,
            )
            .with_mime_type("application/json"),
            None => {
                return Err(ErrorData::invalid_params(
                    "Resource not found",
                    Some(json!({"uri": uri})),
                ));
            }
        },
    };
    Ok(ReadResourceResult::new(vec![contents])
        .with_ttl_ms(FRESH_MS)
        .with_cache_scope(CacheScope::Public))
}

/// The `{id}` of `test://template/{id}/data`: one non-empty path segment.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri
        .strip_prefix("test://template/")?
        .strip_suffix("/data")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_takes_one_segment() {
        assert_eq!(template_id("test://template/123/data"), Some("123"));
        assert_eq!(template_id("test://template//data"), None);
        assert_eq!(template_id("test://template/1/2/data"), None);
        assert_eq!(template_id("test://template/123"), None);
    }
}
