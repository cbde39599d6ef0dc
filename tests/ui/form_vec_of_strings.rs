// `#[derive(Form)]` on a struct with a `Vec<String>` field: a `Vec` field must hold a choice enum.
use mrtr::Form;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Form)]
struct Profile {
    name: String,
    tags: Vec<String>,
}

fn main() {}
