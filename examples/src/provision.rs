//! The wizard's long-running tool: `provision` prepares a team's workspace for a few seconds,
//! asks where it should live, then creates it. A client that supports the tasks extension
//! (`io.modelcontextprotocol/tasks`) gets a task and answers the question through
//! `tasks/update`; any other gets the same tool as ordinary rounds.

use std::time::Duration;

use mrtr::{Form, ask, elicit, mrtr_tool};
use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::wizard::Wizard;

/// The longest `provision` prepares: a minute.
pub const MAX_PREPARE_MS: u64 = 60_000;

/// Arguments of `provision`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ProvisionArgs {
    /// The team whose workspace to provision.
    pub team: String,
    /// How long preparing takes, in milliseconds: 3000 unless given, 60000 at most.
    pub prepare_ms: Option<u64>,
}

/// Where a workspace may live.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, Form)]
#[serde(rename_all = "lowercase")]
pub enum Region {
    Eu,
    Us,
    Apac,
}

/// The one question `provision` asks.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct RegionChoice {
    pub region: Region,
}

#[tool_router(router = provision_router, vis = "pub(crate)")]
impl Wizard {
    #[mrtr_tool(task = "optional")]
    #[tool(
        description = "Provision a team's workspace: prepares it (a few seconds), asks where it \
                       should live, then creates it. Runs as a task for clients that support tasks"
    )]
    async fn provision(
        &self,
        Parameters(args): Parameters<ProvisionArgs>,
    ) -> Result<String, String> {
        let prepare = args.prepare_ms.unwrap_or(3000).min(MAX_PREPARE_MS);
        tokio::time::sleep(Duration::from_millis(prepare)).await;
        let region = ask!(
            region = elicit::<RegionChoice>(format!(
                "{}'s workspace is ready to create. Where should it live?",
                args.team
            ))
        )
        .accepted()
        .map_err(|refused| format!("Provisioning cancelled at {}", refused.key))?
        .region;
        let region = serde_json::to_value(region).unwrap_or_default();
        Ok(format!(
            "Provisioned {}'s workspace in {}",
            args.team,
            region.as_str().unwrap_or_default()
        ))
    }
}
