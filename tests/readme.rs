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

/// The README counts the tests it describes: the misuses in `tests/ui/`, the hand-written bodies
/// of `tests/differential.rs` and the generated programs of a default run.
#[test]
fn the_readme_counts_the_tests_it_describes() {
    let readme = include_str!("../README.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let misuses = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/ui"))
        .expect("tests/ui is readable")
        .filter(|entry| {
            entry
                .as_ref()
                .is_ok_and(|entry| entry.path().extension().is_some_and(|e| e == "rs"))
        })
        .count();
    let bodies = include_str!("differential.rs")
        .lines()
        .filter(|line| {
            line.strip_prefix("    ").is_some_and(|name| {
                name.ends_with("(args) => {") && name.starts_with(|c: char| c.is_ascii_lowercase())
            })
        })
        .count();
    let generated = include_str!("build.rs")
        .lines()
        .find_map(|line| line.strip_prefix("const DEFAULT_COUNT: usize = "))
        .and_then(|rest| rest.strip_suffix(';'))
        .expect("build.rs sets DEFAULT_COUNT");
    for claim in [
        format!("they compile {misuses} misuses"),
        format!("they run {bodies} hand-written tool bodies"),
        format!("and {generated} generated ones"),
    ] {
        assert!(readme.contains(&claim), "README.md should say \"{claim}\"");
    }
}
