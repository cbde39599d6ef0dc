// `#[mrtr_resource]` on a method without the `(request, context)` parameters of `read_resource`.
use mrtr::{ask, elicit, mrtr_resource};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

struct Server;

impl Server {
    #[mrtr_resource]
    async fn secret(&self, uri: String) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{uri} for {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

fn main() {
    let _ = Server.secret(String::new());
}
