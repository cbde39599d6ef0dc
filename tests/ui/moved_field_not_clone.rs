// A field moved out of a local held across an `ask!` is cloned there; this one cannot be.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

/// A ticket that must not be copied.
#[derive(serde::Serialize, serde::Deserialize)]
struct Ticket(u64);

#[derive(serde::Serialize, serde::Deserialize)]
struct Booking {
    guest: String,
    ticket: Ticket,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Books")]
    async fn book(&self) -> String {
        let booking = Booking { guest: "ada".to_owned(), ticket: Ticket(7) };
        let ticket = booking.ticket;
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{} {} {name:?}", booking.guest, ticket.0)
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
