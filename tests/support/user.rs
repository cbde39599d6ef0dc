//! A user behind a real rmcp client, for rmcp's own `call_tool` loop to put the questions to.

use std::sync::{Arc, Mutex};

use mrtr_examples::demo::elicitation_client;
use rmcp::{
    ClientHandler, ErrorData,
    model::{ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction},
    service::{RequestContext, RoleClient},
};
use serde_json::Value;

type Answer = dyn Fn(&str) -> Option<Value> + Send + Sync;

/// A user that answers each form question by its message, accepting with the content `answer`
/// gives or declining where it gives `None`, and records every message it was asked.
#[derive(Clone)]
pub struct ScriptedUser {
    answer: Arc<Answer>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl ScriptedUser {
    pub fn new(answer: impl Fn(&str) -> Option<Value> + Send + Sync + 'static) -> Self {
        Self {
            answer: Arc::new(answer),
            asked: Arc::default(),
        }
    }

    /// The messages of the questions asked so far, in order.
    pub fn asked(&self) -> Vec<String> {
        self.asked.lock().expect("not poisoned").clone()
    }

    /// Forgets the questions asked so far.
    pub fn forget(&self) {
        self.asked.lock().expect("not poisoned").clear();
    }
}

impl ClientHandler for ScriptedUser {
    fn get_info(&self) -> ClientConfig {
        elicitation_client()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        self.asked
            .lock()
            .expect("not poisoned")
            .push(message.clone());
        Ok(match (self.answer)(&message) {
            Some(content) => ElicitResult::new(ElicitationAction::Accept).with_content(content),
            None => ElicitResult::new(ElicitationAction::Decline),
        })
    }
}
