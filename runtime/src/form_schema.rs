//! The `requestedSchema` of a form type: schemars' JSON Schema, rewritten into the flat shapes
//! MCP's elicitation allows (a string, number, integer, boolean, or a choice of strings), and
//! made once per type.

use rmcp::model::ElicitationSchema;
use serde_json::{Map, Value};

use crate::FormParts;

/// The `requestedSchema` of `T`: schemars' schema with enums and other definitions inlined, as
/// forms have no `$ref`, and `Option` fields written as not required. The root `title` and
/// `description` (the Rust type's name and docs) are dropped: the question's message speaks
/// to the user. Field docs stay, as the descriptions of the fields; a choice whose variants
/// have docs (or titles) shows them as the choices' titles.
pub(crate) fn form_schema<T: FormParts>() -> Result<ElicitationSchema, serde_json::Error> {
    let mut settings = schemars::generate::SchemaSettings::draft07();
    settings.inline_subschemas = true;
    settings.transforms = vec![Box::new(schemars::transform::AddNullable::default())];
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut object = match serde_json::to_value(schema)? {
        Value::Object(object) => object,
        other => {
            return Err(serde::de::Error::custom(format!(
                "a form schema must be an object, not {other}"
            )));
        }
    };
    for key in ["$schema", "definitions", "title", "description"] {
        object.remove(key);
    }
    // A form with no fields (a plain confirmation) still has `properties`, which MCP requires.
    let properties = object
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(properties) = properties {
        properties.values_mut().for_each(flatten_property);
    }
    ElicitationSchema::from_json_schema(object)
}

/// [`form_schema`], made once per type.
pub(crate) fn cached<T: FormParts + 'static>() -> Result<ElicitationSchema, serde_json::Error> {
    read::<T, _>(ElicitationSchema::clone)
}

/// `read` of [`form_schema`], made once per type and read where it is kept (no copy).
pub(crate) fn read<T: FormParts + 'static, R>(
    read: impl FnOnce(&ElicitationSchema) -> R,
) -> Result<R, serde_json::Error> {
    use std::{any::TypeId, collections::HashMap, sync::RwLock};
    // Keyed by type id, which no client chooses: a fast hash is safe.
    type Cache = HashMap<TypeId, ElicitationSchema, foldhash::fast::FixedState>;
    static CACHE: RwLock<Option<Cache>> = RwLock::new(None);
    if let Ok(cache) = CACHE.read()
        && let Some(schema) = cache.as_ref().and_then(|c| c.get(&TypeId::of::<T>()))
    {
        return Ok(read(schema));
    }
    let schema = form_schema::<T>()?;
    let result = read(&schema);
    if let Ok(mut cache) = CACHE.write() {
        cache
            .get_or_insert_with(Cache::default)
            .insert(TypeId::of::<T>(), schema);
    }
    Ok(result)
}

/// One property as MCP writes it: an `Option`'s null alternative dropped (the field is simply
/// not required), and a choice whose variants schemars wrote one by one (`oneOf` of `const`s,
/// as it does when they have docs) as a titled choice.
fn flatten_property(property: &mut Value) {
    let Value::Object(object) = property else {
        return;
    };
    without_null(object);
    if let Some(choices) = titled_choices(object.get("oneOf")) {
        object.remove("oneOf");
        object.insert("type".into(), "string".into());
        object.insert("oneOf".into(), Value::Array(choices));
    }
    if let Some(Value::Object(items)) = object.get_mut("items") {
        without_null(items);
        if let Some(choices) = titled_choices(items.get("oneOf")) {
            items.clear();
            items.insert("anyOf".into(), Value::Array(choices));
        }
    }
}

/// Removes what `Option` adds: `nullable`, a `null` in `enum` or `type`, and a null
/// alternative beside the one real one in `anyOf` (whose keys join the property's).
fn without_null(object: &mut Map<String, Value>) {
    object.remove("nullable");
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|value| !value.is_null());
    }
    if let Some(Value::Array(types)) = object.get("type") {
        let types: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if let [one] = types.as_slice() {
            object.insert("type".into(), one.clone());
        }
    }
    let Some(Value::Array(alternatives)) = object.get("anyOf") else {
        return;
    };
    let real: Vec<&Value> = alternatives
        .iter()
        .filter(|alternative| !is_null_schema(alternative))
        .collect();
    let [Value::Object(real)] = real.as_slice() else {
        return;
    };
    let real = real.clone();
    object.remove("anyOf");
    for (key, value) in real {
        object.entry(key).or_insert(value);
    }
    without_null(object);
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("const").is_some_and(Value::is_null) || schema.get("type") == Some(&"null".into())
}

/// `oneOf: [{const: "free", description: ".."}, ..]` as `[{const: "free", title: ".."}, ..]`;
/// the variants schemars groups as `{type: "string", enum: [..]}` (those with no docs, beside
/// documented ones) are titled by their values. `None` unless every alternative is strings.
fn titled_choices(one_of: Option<&Value>) -> Option<Vec<Value>> {
    let Value::Array(alternatives) = one_of? else {
        return None;
    };
    let mut choices = Vec::new();
    for alternative in alternatives {
        if let Some(Value::Array(values)) = alternative.get("enum") {
            for value in values {
                let value = value.as_str()?;
                choices.push(serde_json::json!({"const": value, "title": value}));
            }
            continue;
        }
        let value = alternative.get("const")?.as_str()?;
        let title = ["title", "description"]
            .iter()
            .find_map(|key| alternative.get(*key)?.as_str())
            .unwrap_or(value);
        choices.push(serde_json::json!({"const": value, "title": title}));
    }
    Some(choices)
}

/// A schema's `required` names, sorted.
#[cfg(test)]
pub(crate) fn required(schema: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Tier {
        /// The free tier.
        Free,
        /// Paid, per seat.
        Pro,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Size {
        Small,
        Large,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum PartlyDocumented {
        /// The first one.
        First,
        Second,
        Third,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Choices {
        /// Which tier.
        tier: Tier,
        rush_tier: Option<Tier>,
        tiers: Vec<Tier>,
        /// Rush size, if any.
        rush: Option<Size>,
        sizes: Vec<Size>,
        size: Size,
        #[schemars(range(min = 1))]
        count: Option<u32>,
        partly: PartlyDocumented,
        partly_many: Vec<PartlyDocumented>,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Confirmation {}

    #[test]
    fn choices_keep_their_values_and_titles_in_every_shape() {
        let schema =
            serde_json::to_value(form_schema::<Choices>().expect("a flat schema")).unwrap();
        let properties = &schema["properties"];
        let titled = json!([
            {"const": "free", "title": "The free tier."},
            {"const": "pro", "title": "Paid, per seat."},
        ]);
        assert_eq!(properties["tier"]["oneOf"], titled);
        assert_eq!(properties["tier"]["type"], "string");
        assert_eq!(properties["tier"]["description"], "Which tier.");
        assert_eq!(properties["rush_tier"]["oneOf"], titled, "{schema}");
        assert_eq!(properties["tiers"]["items"]["anyOf"], titled, "{schema}");
        assert_eq!(
            properties["rush"]["enum"],
            json!(["small", "large"]),
            "{schema}"
        );
        assert_eq!(properties["rush"]["description"], "Rush size, if any.");
        assert_eq!(
            properties["sizes"]["items"]["enum"],
            json!(["small", "large"])
        );
        assert_eq!(properties["size"]["enum"], json!(["small", "large"]));
        assert_eq!(properties["count"]["minimum"], 1);
        // schemars lists the variants with no docs first.
        let partly = json!([
            {"const": "second", "title": "second"},
            {"const": "third", "title": "third"},
            {"const": "first", "title": "The first one."},
        ]);
        assert_eq!(properties["partly"]["oneOf"], partly, "{schema}");
        assert_eq!(properties["partly_many"]["items"]["anyOf"], partly);
        assert_eq!(
            required(&schema),
            ["partly", "partly_many", "size", "sizes", "tier", "tiers"]
        );
    }

    #[test]
    fn a_form_with_no_fields_has_empty_properties() {
        let schema =
            serde_json::to_value(form_schema::<Confirmation>().expect("a flat schema")).unwrap();
        assert_eq!(schema["properties"], json!({}), "{schema}");
    }
}
