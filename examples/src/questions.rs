//! The wizard's benchmark tools: `wizard5`, five questions written out one after another, and
//! `questions`, any number of questions asked in a loop. Each question is a one-field form;
//! both join the answers at the end.

use mrtr::{Form, Refused, ask, elicit, mrtr_tool};
use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::wizard::Wizard;

/// The most questions one `questions` call may ask.
pub const MAX_QUESTIONS: u32 = 100;

/// One answer, as the form of every question asks it.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct Answer {
    /// Your answer.
    pub answer: String,
}

/// Arguments of `questions`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct QuestionsArgs {
    /// How many questions to ask, one per round: 1 to 100.
    pub questions: u32,
}

fn cancelled(refused: Refused) -> String {
    format!("Cancelled at {}", refused.key)
}

#[tool_router(router = questions_router, vis = "pub(crate)")]
impl Wizard {
    #[mrtr_tool]
    #[tool(description = "Asks five questions, q1 to q5, one per round, and joins the answers")]
    async fn wizard5(&self) -> Result<String, String> {
        let a1 = ask!(q1 = elicit::<Answer>("Question 1 of 5"))
            .accepted()
            .map_err(cancelled)?
            .answer;
        let a2 = ask!(q2 = elicit::<Answer>("Question 2 of 5"))
            .accepted()
            .map_err(cancelled)?
            .answer;
        let a3 = ask!(q3 = elicit::<Answer>("Question 3 of 5"))
            .accepted()
            .map_err(cancelled)?
            .answer;
        let a4 = ask!(q4 = elicit::<Answer>("Question 4 of 5"))
            .accepted()
            .map_err(cancelled)?
            .answer;
        let a5 = ask!(q5 = elicit::<Answer>("Question 5 of 5"))
            .accepted()
            .map_err(cancelled)?
            .answer;
        Ok(format!("{a1}, {a2}, {a3}, {a4}, {a5}"))
    }

    #[mrtr_tool]
    #[tool(
        description = "Asks `questions` questions (1 to 100), one per round under the key q, \
                       and joins the answers"
    )]
    async fn questions(
        &self,
        Parameters(args): Parameters<QuestionsArgs>,
    ) -> Result<String, String> {
        let total = args.questions;
        if !(1..=MAX_QUESTIONS).contains(&total) {
            return Err(format!(
                "questions must be 1 to {MAX_QUESTIONS}, not {total}"
            ));
        }
        let mut answers = Vec::new();
        for number in 1..=total {
            let answer = ask!(q = elicit::<Answer>(format!("Question {number} of {total}")))
                .accepted()
                .map_err(cancelled)?
                .answer;
            answers.push(answer);
        }
        Ok(answers.join(", "))
    }
}
