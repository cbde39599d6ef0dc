//! A tool whose asks sit in a loop, a for and a branch.
use mrtr::{ask, mrtr_tool, roots, sample};
use rmcp::{tool, tool_router};

struct Onboarding;

#[tool_router]
impl Onboarding {
    #[mrtr_tool]
    #[tool(description = "Name a few repositories, then describe each")]
    async fn repos(&self) -> String {
        let mut repos = Vec::new();
        loop {
            let name = ask!(repo = sample("Name a repository, or say done")).text;
            if name == "done" || repos.len() == 5 {
                break;
            }
            repos.push(name);
        }
        let mut lines = Vec::new();
        for repo in repos {
            if repo.starts_with('.') {
                continue;
            }
            let line = ask!(describe = sample(["Describe ", repo.as_str()].concat())).text;
            lines.push(line);
        }
        if lines.is_empty() {
            let places = ask!(roots());
            lines.extend(places.into_iter().map(|root| root.uri));
        }
        lines.join("\n")
    }
}

impl mrtr::MrtrServer for Onboarding {}

fn main() {}
