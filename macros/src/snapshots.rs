//! Expansion snapshots: what `#[mrtr_tool]` generates, pretty-printed and checked with insta.

use quote::quote;

use crate::tool::expand_pretty;

#[test]
fn straight_line() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool(description = "Sign up")]
            async fn signup(&self, Parameters(args): Parameters<SignupArgs>) -> Result<CallToolResult, String> {
                let team = args.team.trim().to_string();
                let profile = ask!(profile = elicit::<Profile>(format!("Welcome to {team}!")))
                    .accepted()
                    .map_err(|refused| format!("cancelled at {}", refused.key))?;
                tracing::info!("got {}", profile.name);
                let confirm = ask!(elicit::<Confirm>("Sure?")).accepted().map_err(|r| r.to_string())?;
                Ok(CallToolResult::success(vec![ContentBlock::text(format!("{} {}", profile.name, confirm.confirm))]))
            }
        }
    ));
}

#[test]
fn shadowing_and_dead_bindings_fold_into_regions() {
    insta::assert_snapshot!(expand_pretty(
        quote!(version = "1"),
        quote! {
            #[tool]
            async fn shadow(&self) -> String {
                let name = ask!(first = elicit::<Name>("Name?")).ok().unwrap_or_default().name;
                let name = name.trim().to_string();
                let moved = name.clone();
                drop(moved);
                let (mut count, label) = (1u32, "n");
                count += 1;
                ask!(second = elicit::<Confirm>("Again?"));
                format!("{name} {count} {label}")
            }
        }
    ));
}
