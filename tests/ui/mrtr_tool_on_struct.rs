// `#[mrtr_tool]` on something that is not a function.
use mrtr::mrtr_tool;

#[mrtr_tool]
struct Greeter {
    greeting: String,
}

fn main() {
    let _ = Greeter {
        greeting: String::new(),
    }
    .greeting;
}
