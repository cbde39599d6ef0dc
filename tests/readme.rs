//! The README shows what the code does: its flowchart of `onboard` is the one the macro draws.

#[test]
fn the_readme_shows_the_generated_onboard_flowchart() {
    let readme = include_str!("../README.md");
    let chart = mrtr_examples::wizard::Wizard::ONBOARD_FLOW;
    assert!(
        readme.contains(chart),
        "README.md is out of date; its onboard flowchart should read:\n{chart}"
    );
}
