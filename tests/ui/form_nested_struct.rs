// `#[derive(Form)]` on a struct with a nested struct field: the error is on the field's type.
use mrtr::Form;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Address {
    city: String,
}

#[derive(Deserialize, JsonSchema, Form)]
struct Profile {
    name: String,
    address: Address,
}

fn main() {}
