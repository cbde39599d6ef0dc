// `#[derive(Form)]` on a tuple struct.
use mrtr::Form;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Form)]
struct Profile(String, u32);

fn main() {}
