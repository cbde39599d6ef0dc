// `#[derive(Form)]` on an enum with a data variant.
use mrtr::Form;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Form)]
enum Plan {
    Free,
    Custom { seats: u32 },
}

fn main() {}
