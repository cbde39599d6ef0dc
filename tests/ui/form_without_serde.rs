// `#[derive(Form)]` without `Deserialize` and `JsonSchema`.
use mrtr::Form;

#[derive(Form)]
struct Profile {
    name: String,
}

fn main() {}
