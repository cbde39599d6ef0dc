// `#[derive(Form)]` on a union.
use mrtr::Form;

#[derive(Form)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
