//! Whether a form's answer keeps the constraints its `requestedSchema` states: lengths, formats,
//! ranges and item counts (`#[schemars(length(..), range(..), email, url)]`). Clients should
//! check them, but the server cannot count on it, so an answer that breaks one is asked again.
//! Types, required fields and choices are checked by deserializing the answer.

use rmcp::model::{
    ElicitationSchema, EnumSchema, MultiSelectEnumSchema, PrimitiveSchemaDefinition, StringFormat,
    StringSchema,
};
use serde_json::Value;
use std::borrow::Cow;

/// Reads an answer as a form UI may write it: keys the form does not ask for dropped, a whole
/// number written as a float (`2.0`) for an integer, and an optional field left empty (`""`)
/// where the empty string would break the field's constraints (an email, a length, a choice) as
/// not answered.
fn tidy(schema: &ElicitationSchema, content: &mut Value) {
    let Value::Object(content) = content else {
        return;
    };
    // Keys the form does not ask for are ignored, even by a `deny_unknown_fields` form.
    content.retain(|name, _| schema.properties.contains_key(name));
    let required = schema.required.as_deref().unwrap_or_default();
    for (name, property) in &schema.properties {
        let Some(value) = content.get_mut(name) else {
            continue;
        };
        match tidy_property(property, value, required.contains(name)) {
            Tidy::Keep => {}
            Tidy::Whole(whole) => *value = Value::from(whole),
            Tidy::Unanswered => {
                content.remove(name);
            }
        }
    }
}

/// `content` as [`tidy`] leaves it: borrowed when there is nothing to tidy, as with most
/// clients' answers, else a tidied copy.
pub(crate) fn tidied<'a>(schema: &ElicitationSchema, content: &'a Value) -> Cow<'a, Value> {
    let Value::Object(object) = content else {
        return Cow::Borrowed(content);
    };
    let required = schema.required.as_deref().unwrap_or_default();
    let untidy = object
        .keys()
        .any(|name| !schema.properties.contains_key(name))
        || schema.properties.iter().any(|(name, property)| {
            object.get(name).is_some_and(|value| {
                !matches!(
                    tidy_property(property, value, required.contains(name)),
                    Tidy::Keep
                )
            })
        });
    if !untidy {
        return Cow::Borrowed(content);
    }
    let mut tidied = content.clone();
    tidy(schema, &mut tidied);
    Cow::Owned(tidied)
}

/// What tidying does to the answer of one property.
enum Tidy {
    Keep,
    /// A whole number written as a float, for an integer.
    Whole(i64),
    /// An optional field left empty where `""` does not fit: not answered.
    Unanswered,
}

fn tidy_property(property: &PrimitiveSchemaDefinition, value: &Value, required: bool) -> Tidy {
    if let PrimitiveSchemaDefinition::Integer(_) = property
        && value.is_f64()
        && let Some(whole) = value
            .as_f64()
            .filter(|n| n.fract() == 0.0 && n.abs() < 2f64.powi(53))
    {
        return Tidy::Whole(whole as i64);
    }
    if value.as_str() == Some("") && !required && !empty_fits(property) {
        return Tidy::Unanswered;
    }
    Tidy::Keep
}

/// Whether `""` is an answer `property` takes: a string with no length or format to keep, or
/// a choice of `""`.
fn empty_fits(property: &PrimitiveSchemaDefinition) -> bool {
    match property {
        PrimitiveSchemaDefinition::String(_) => property_fits(property, &Value::from("")).is_ok(),
        PrimitiveSchemaDefinition::Enum(choice) => {
            let choice = serde_json::to_value(choice).unwrap_or_default();
            let listed = choice["enum"].as_array().into_iter().flatten();
            let titled = choice["oneOf"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| &c["const"]);
            listed.chain(titled).any(|value| value == "")
        }
        _ => false,
    }
}

/// Why `content`, which did not read as `T`, does not: serde's message, after the form's field
/// it is about (``at `age`: invalid type: ...``). Only a field the schema asks for is named, so
/// the log may keep it; the message's values are for [`crate::log::redacted`] to drop.
pub(crate) fn why_unread<T: serde::de::DeserializeOwned>(
    schema: &ElicitationSchema,
    content: &Value,
) -> String {
    // Read again, tracking the path, only once the answer has failed.
    let Err(error) = serde_path_to_error::deserialize::<_, T>(content) else {
        return "it does not read".to_owned();
    };
    let field = match error.path().iter().next() {
        Some(serde_path_to_error::Segment::Map { key }) if schema.properties.contains_key(key) => {
            Some(key.clone())
        }
        _ => None,
    };
    let message = error.into_inner();
    match field {
        Some(field) => format!("{AT_FIELD}{field}`: {message}"),
        None => message.to_string(),
    }
}

/// How [`why_unread`] names a field.
pub(crate) const AT_FIELD: &str = "at `";

/// How an `Err` of [`fits`] begins.
pub(crate) const BROKEN: &str = "the answer breaks its schema: ";

/// `Err` names the property and the constraint it breaks, never the value.
pub(crate) fn fits(schema: &ElicitationSchema, content: &Value) -> Result<(), String> {
    let Value::Object(content) = content else {
        return Ok(());
    };
    for (name, property) in &schema.properties {
        let Some(value) = content.get(name).filter(|value| !value.is_null()) else {
            continue;
        };
        property_fits(property, value).map_err(|broken| format!("{BROKEN}`{name}` {broken}"))?;
    }
    Ok(())
}

fn property_fits(property: &PrimitiveSchemaDefinition, value: &Value) -> Result<(), String> {
    match property {
        PrimitiveSchemaDefinition::String(schema) => match value.as_str() {
            Some(text) => string_fits(schema, text),
            None => Ok(()),
        },
        PrimitiveSchemaDefinition::Number(schema) => {
            within(value.as_f64(), schema.minimum, schema.maximum)
        }
        PrimitiveSchemaDefinition::Integer(schema) => within(
            value.as_f64(),
            schema.minimum.map(|min| min as f64),
            schema.maximum.map(|max| max as f64),
        ),
        PrimitiveSchemaDefinition::Enum(EnumSchema::Multi(multi)) => {
            let (min, max) = match multi {
                MultiSelectEnumSchema::Untitled(schema) => (schema.min_items, schema.max_items),
                MultiSelectEnumSchema::Titled(schema) => (schema.min_items, schema.max_items),
                _ => (None, None),
            };
            let count = value.as_array().map_or(0, Vec::len) as u64;
            if let Some(min) = min
                && count < min
            {
                return Err(format!("has fewer than {min} choices"));
            }
            if let Some(max) = max
                && count > max
            {
                return Err(format!("has more than {max} choices"));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn string_fits(schema: &StringSchema, text: &str) -> Result<(), String> {
    let length = text.chars().count() as u64;
    if let Some(min) = schema.min_length
        && length < u64::from(min)
    {
        return Err(format!("is shorter than {min} characters"));
    }
    if let Some(max) = schema.max_length
        && length > u64::from(max)
    {
        return Err(format!("is longer than {max} characters"));
    }
    let (formed, what) = match schema.format {
        Some(StringFormat::Email) => (
            email_address::EmailAddress::is_valid(text),
            "an email address",
        ),
        Some(StringFormat::Uri) => (url::Url::parse(text).is_ok(), "a URI"),
        Some(StringFormat::Date) => (
            chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok(),
            "a date (YYYY-MM-DD)",
        ),
        Some(StringFormat::DateTime) => (
            chrono::DateTime::parse_from_rfc3339(text).is_ok(),
            "a date and time (RFC 3339)",
        ),
        _ => (true, ""),
    };
    if formed {
        Ok(())
    } else {
        Err(format!("is not {what}"))
    }
}

fn within(number: Option<f64>, min: Option<f64>, max: Option<f64>) -> Result<(), String> {
    let Some(number) = number else {
        return Ok(());
    };
    if let Some(min) = min
        && number < min
    {
        return Err(format!("is below its minimum, {min}"));
    }
    if let Some(max) = max
        && number > max
    {
        return Err(format!("is above its maximum, {max}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Booking {
        #[schemars(length(min = 2, max = 5))]
        name: String,
        #[schemars(email)]
        email: Option<String>,
        #[schemars(url)]
        site: Option<String>,
        #[schemars(range(min = 1, max = 10))]
        seats: u32,
        #[schemars(range(min = 0.5))]
        weight: Option<f64>,
        day: Option<chrono::NaiveDate>,
        at: Option<chrono::DateTime<chrono::Utc>>,
    }

    fn check(content: Value) -> Result<(), String> {
        let schema = crate::form_schema::form_schema::<Booking>().expect("a flat schema");
        fits(&schema, &content)
    }

    #[test]
    fn an_answer_within_every_constraint_fits() {
        let answer = json!({
            "name": "Ada", "email": "ada@example.com", "site": "https://example.com/x",
            "seats": 10, "weight": 0.5, "day": "2026-12-02", "at": "2026-12-02T10:00:00Z",
        });
        assert_eq!(check(answer), Ok(()));
        assert_eq!(
            check(json!({"name": "Ada", "seats": 1, "email": null})),
            Ok(())
        );
    }

    #[test]
    fn each_broken_constraint_is_named_without_the_value() {
        let base = json!({"name": "Ada", "seats": 3});
        let cases = [
            ("name", json!("A"), "`name` is shorter than 2 characters"),
            (
                "name",
                json!("Adelaide"),
                "`name` is longer than 5 characters",
            ),
            ("name", json!("Ådå"), ""),
            (
                "email",
                json!("not-an-email"),
                "`email` is not an email address",
            ),
            ("site", json!("no scheme"), "`site` is not a URI"),
            ("seats", json!(0), "`seats` is below its minimum, 1"),
            ("seats", json!(11), "`seats` is above its maximum, 10"),
            ("weight", json!(0.25), "`weight` is below its minimum, 0.5"),
            (
                "day",
                json!("2026-02-30"),
                "`day` is not a date (YYYY-MM-DD)",
            ),
            (
                "at",
                json!("yesterday"),
                "`at` is not a date and time (RFC 3339)",
            ),
        ];
        for (field, value, broken) in cases {
            let mut answer = base.clone();
            answer[field] = value.clone();
            let checked = check(answer);
            if broken.is_empty() {
                assert_eq!(checked, Ok(()), "{field} = {value}");
                continue;
            }
            let message = checked.expect_err(broken);
            assert_eq!(message, format!("{BROKEN}{broken}"));
            assert_eq!(crate::log::redacted(&message), message, "kept in the log");
        }
    }

    #[test]
    fn a_whole_float_reads_as_an_integer_and_an_empty_optional_field_as_unanswered() {
        let schema = crate::form_schema::form_schema::<Booking>().expect("a flat schema");
        let mut answer = json!({
            "name": "", "email": "", "site": "", "seats": 2.0, "weight": 1.0, "day": "",
        });
        tidy(&schema, &mut answer);
        assert_eq!(
            answer,
            json!({"name": "", "seats": 2, "weight": 1.0}),
            "a required field stays as sent, to be asked again"
        );
        let mut fraction = json!({"seats": 2.5});
        tidy(&schema, &mut fraction);
        assert_eq!(fraction, json!({"seats": 2.5}));
    }

    /// `tidied` copies an answer only to tidy it, and then tidies it as `tidy` does.
    #[test]
    fn tidied_borrows_a_tidy_answer_and_tidies_the_others() {
        let schema = crate::form_schema::form_schema::<Booking>().expect("a flat schema");
        for tidy_already in [
            json!({"name": "Ada", "seats": 2}),
            json!({"name": "", "seats": 2.5, "weight": 1.0}),
            json!({}),
            json!("not an object"),
        ] {
            let read = tidied(&schema, &tidy_already);
            assert!(matches!(read, Cow::Borrowed(_)), "{tidy_already}");
            assert_eq!(*read, tidy_already);
        }
        for untidy in [
            json!({"name": "Ada", "extra": true}),
            json!({"name": "Ada", "seats": 2.0}),
            json!({"name": "Ada", "email": ""}),
            json!({"name": "", "email": "", "site": "", "seats": 2.0, "weight": 1.0, "day": ""}),
        ] {
            let mut expected = untidy.clone();
            tidy(&schema, &mut expected);
            assert_ne!(expected, untidy);
            let read = tidied(&schema, &untidy);
            assert!(matches!(read, Cow::Owned(_)), "{untidy}");
            assert_eq!(*read, expected);
        }
    }

    /// An answer that does not read names the form's field it is about, and the log keeps the
    /// field but not the value.
    #[test]
    fn an_answer_that_does_not_read_names_its_field() {
        let schema = crate::form_schema::form_schema::<Booking>().expect("a flat schema");
        let why = |content: Value| {
            assert!(Booking::deserialize(&content).is_err(), "{content}");
            let why = why_unread::<Booking>(&schema, &content);
            crate::log::redacted(&format!("{}{why}", crate::log::FORM_DOES_NOT_FIT))
        };
        for (content, said) in [
            (
                json!({"name": 42, "seats": 2}),
                "at `name`: invalid type, expected a string",
            ),
            (
                json!({"name": "Ada", "seats": "hunter2"}),
                "at `seats`: invalid type, expected u32",
            ),
            (
                json!({"name": "Ada", "seats": 2, "day": "hunter2"}),
                "at `day`: malformed",
            ),
            (json!({"name": "Ada"}), "missing field `seats`"),
            (json!("hunter2"), "invalid type, expected struct Booking"),
        ] {
            assert_eq!(
                why(content),
                format!("the form content does not fit: {said}")
            );
        }
    }
}
