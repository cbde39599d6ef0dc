//! State-only rounds: yield with `requestState` and no question, and carry on in the retry.

use rmcp::{
    ErrorData,
    model::{ClientCapabilities, InputRequest},
};
use serde_json::Value;

use crate::Question;

/// `ask!(checkpoint())` ends the round with an `InputRequiredResult` that holds only
/// `requestState`. The client retries at once, possibly reaching another instance, and the tool
/// carries on after the checkpoint. Use it to split long work or shed load.
pub fn checkpoint() -> Checkpoint {
    Checkpoint(())
}

/// A state-only round; see [`checkpoint`].
#[derive(Debug, Clone, Copy)]
pub struct Checkpoint(());

impl Question for Checkpoint {
    type Answer = ();

    const NEEDS_RESPONSE: bool = false;

    fn missing_capability(&self, _: &ClientCapabilities) -> Option<ClientCapabilities> {
        None
    }

    fn into_input_request(self) -> Result<Option<InputRequest>, ErrorData> {
        Ok(None)
    }

    fn read_answer(_: &str, _: &Value) -> Result<(), String> {
        Ok(())
    }

    fn keep(&self) -> Option<crate::question::Kept> {
        crate::question::kept(self)
    }
}
