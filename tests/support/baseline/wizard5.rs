//! `wizard5` by hand: five one-field questions, `q1` to `q5`, one per round; the answers
//! joined at the end. It takes no arguments, so its states are bound to the tool alone.

use rmcp::{
    ErrorData,
    handler::server::tool::{InputResponses as Responses, RequestState},
    model::CallToolResponse,
    tool, tool_router,
};
use serde::{Deserialize, Serialize};

use super::{HandWritten, Reply, binding, done, failed, reply};

/// The question a round asks, with the answers before it.
#[derive(Serialize, Deserialize)]
enum Step {
    Q1,
    Q2 {
        a1: String,
    },
    Q3 {
        a1: String,
        a2: String,
    },
    Q4 {
        a1: String,
        a2: String,
        a3: String,
    },
    Q5 {
        a1: String,
        a2: String,
        a3: String,
        a4: String,
    },
}

/// Every question's form.
#[derive(Deserialize)]
struct Answer {
    answer: String,
}

// The requested schemas, as mrtr's `#[derive(Form)]` makes them from the form types of
// `mrtr_examples::questions` (doc comments of fields and enums become descriptions), written as
// they travel: rmcp puts the keys in order.
const ANSWER_SCHEMA: &str = r#"{"properties":{"answer":{"description":"Your answer.","type":"string"}},"required":["answer"],"type":"object"}"#;

impl Step {
    /// 1 to 5.
    fn number(&self) -> u8 {
        match self {
            Step::Q1 => 1,
            Step::Q2 { .. } => 2,
            Step::Q3 { .. } => 3,
            Step::Q4 { .. } => 4,
            Step::Q5 { .. } => 5,
        }
    }

    fn key(&self) -> &'static str {
        ["q1", "q2", "q3", "q4", "q5"][usize::from(self.number() - 1)]
    }

    /// The next step once this question is answered, or all five answers after the last.
    fn then(self, answer: String) -> Result<Step, [String; 5]> {
        Ok(match self {
            Step::Q1 => Step::Q2 { a1: answer },
            Step::Q2 { a1 } => Step::Q3 { a1, a2: answer },
            Step::Q3 { a1, a2 } => Step::Q4 { a1, a2, a3: answer },
            Step::Q4 { a1, a2, a3 } => Step::Q5 {
                a1,
                a2,
                a3,
                a4: answer,
            },
            Step::Q5 { a1, a2, a3, a4 } => return Err([a1, a2, a3, a4, answer]),
        })
    }
}

#[tool_router(router = wizard5_router, vis = "pub(super)")]
impl HandWritten {
    #[tool(description = "Five questions, written by hand")]
    async fn wizard5(
        &self,
        RequestState(state): RequestState,
        Responses(responses): Responses,
    ) -> Result<CallToolResponse, ErrorData> {
        let binding = binding("wizard5", &[]);
        let step = self.open(state, &binding, Step::Q1)?;
        let key = step.key();
        let next = match reply::<Answer>(&responses, key) {
            Reply::Accepted(Answer { answer }) => match step.then(answer) {
                Ok(next) => next,
                Err(answers) => return done(answers.join(", "), None),
            },
            Reply::Refused => return failed(format!("Cancelled at {key}")),
            Reply::Unusable => step,
        };
        let message = format!("Question {} of 5", next.number());
        self.ask(&binding, next.key(), message, ANSWER_SCHEMA, &next)
    }
}
