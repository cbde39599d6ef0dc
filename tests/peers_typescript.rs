//! The wizard driven by the official TypeScript SDK v2 client (`@modelcontextprotocol/client`
//! 2.4.0, `tests/peers/typescript/drive.mjs`) over loopback Streamable HTTP on 2026-07-28. The
//! SDK's own input-required driver runs every round; the script only answers the questions.

mod peers_driver;

use peers_driver::{Driver, Negotiation};

const CLIENT: &str = "typescript";

/// Node 22 (installing the pinned peers on first use) and the driver script.
async fn driver() -> anyhow::Result<Driver> {
    let program = tokio::task::spawn_blocking(mrtr_tests::peers::node).await?;
    Ok(Driver {
        program,
        script: mrtr_tests::peers::dir().join("typescript/drive.mjs"),
    })
}

async fn signup_and_onboard(negotiation: Negotiation) -> anyhow::Result<()> {
    let output =
        peers_driver::drive(driver().await?, &peers_driver::happy_scenario(negotiation)).await?;
    peers_driver::assert_protocol(&output, CLIENT);
    peers_driver::assert_signed_up(&output);
    peers_driver::assert_onboarded(&output);
    Ok(())
}

/// `versionNegotiation: { mode: { pin: '2026-07-28' } }`.
#[tokio::test]
async fn signup_and_onboard_through_all_rounds() -> anyhow::Result<()> {
    signup_and_onboard(Negotiation::Pin).await
}

/// `versionNegotiation: { mode: 'auto' }`: the `server/discover` probe picks 2026-07-28.
#[tokio::test]
async fn auto_negotiation_reaches_2026_07_28() -> anyhow::Result<()> {
    signup_and_onboard(Negotiation::Auto).await
}

#[tokio::test]
async fn declining_the_plan_cancels_signup() -> anyhow::Result<()> {
    let output = peers_driver::drive(driver().await?, &peers_driver::decline_scenario()).await?;
    peers_driver::assert_protocol(&output, CLIENT);
    peers_driver::assert_declined_at_plan(&output);
    Ok(())
}

/// The longest `onboard` takes 13 rounds; with the cap raised to 13 the client goes through
/// all of them, and the loop stops at five repositories.
#[tokio::test]
async fn the_longest_onboarding_takes_thirteen_rounds() -> anyhow::Result<()> {
    let scenario = peers_driver::longest_onboarding_scenario(Some(13));
    let output = peers_driver::drive(driver().await?, &scenario).await?;
    peers_driver::assert_protocol(&output, CLIENT);
    peers_driver::assert_longest_onboarding(&output);
    Ok(())
}

/// The SDK gives up after 10 rounds by default, so the longest `onboard` (13 questions, one
/// per round) fails in this client unless the cap is raised.
#[tokio::test]
async fn the_longest_onboarding_exceeds_the_default_round_cap() -> anyhow::Result<()> {
    let scenario = peers_driver::longest_onboarding_scenario(None);
    let error = peers_driver::drive(driver().await?, &scenario)
        .await
        .expect_err("13 rounds exceed the default cap of 10");
    assert!(
        error
            .to_string()
            .contains("still required input after 10 rounds (inputRequired.maxRounds)"),
        "{error:#}"
    );
    Ok(())
}
