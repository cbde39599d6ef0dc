//! State-only rounds: yield with `requestState` and no question, and carry on in the retry.

/// `ask!(checkpoint())` ends the round with an `InputRequiredResult` that holds only
/// `requestState`. The client retries at once, possibly reaching another instance, and the tool
/// carries on after the checkpoint. Use it to split long work or shed load.
pub fn checkpoint() -> Checkpoint {
    Checkpoint(())
}

/// A state-only round; see [`checkpoint`].
#[must_use = "a question does nothing until it is asked: `ask!(key = ..)`"]
#[derive(Debug, Clone, Copy)]
pub struct Checkpoint(());

/// Implements [`Question`](crate::Question) for a unit question that sends nothing and whose answer is `()`:
/// the machine halts at it (a checkpoint) or goes straight on (`start_task()`).
macro_rules! asks_nothing {
    ($question:ty) => {
        impl $crate::Question for $question {
            type Answer = ();

            const NEEDS_RESPONSE: bool = false;

            fn missing_capability(
                &self,
                _: &::rmcp::model::ClientCapabilities,
            ) -> ::core::option::Option<::rmcp::model::ClientCapabilities> {
                ::core::option::Option::None
            }

            fn into_input_request(
                self,
            ) -> ::core::result::Result<
                ::core::option::Option<::rmcp::model::InputRequest>,
                ::rmcp::ErrorData,
            > {
                ::core::result::Result::Ok(::core::option::Option::None)
            }

            fn read_answer(
                _: &str,
                _: &::serde_json::Value,
            ) -> ::core::result::Result<(), ::std::string::String> {
                ::core::result::Result::Ok(())
            }

            fn keep(
                &self,
                _: &mut ::std::vec::Vec<u8>,
            ) -> ::core::option::Option<$crate::question::Kept> {
                $crate::question::kept_as(|_, _| {
                    ::core::result::Result::Ok(::core::option::Option::None)
                })
            }
        }
    };
}
pub(crate) use asks_nothing;

asks_nothing!(Checkpoint);
