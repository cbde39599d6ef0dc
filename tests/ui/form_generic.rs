// A form with a type parameter, and one with a lifetime.
#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Answer<T> {
    value: T,
}

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Named<'a> {
    name: &'a str,
}

fn main() {}
