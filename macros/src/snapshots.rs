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

#[test]
fn if_else() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn branch(&self) -> String {
                let role = ask!(role = elicit::<Role>("Role?")).ok().map(|r| r.role).unwrap_or_default();
                let mut role = role;
                if role == "admin" {
                    let sure = ask!(confirm_admin = elicit::<Confirm>("Sure?")).ok().is_some_and(|c| c.confirm);
                    if !sure {
                        role = "developer".to_owned();
                    }
                } else {
                    tracing::info!("not an admin");
                }
                role
            }
        }
    ));
}

#[test]
fn match_arms_with_bindings() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn pick(&self) -> Result<String, String> {
                match ask!(choice = elicit::<Choice>("Which?")) {
                    Elicited::Accept(Choice { kind, size }) => {
                        let more = ask!(more = elicit::<More>(format!("More {kind}?"))).ok();
                        Ok(format!("{kind} {size} {more:?}"))
                    }
                    Elicited::Decline(refused) | Elicited::Cancel(refused) => Err(refused.to_string()),
                }
            }
        }
    ));
}

#[test]
fn a_for_over_a_range_keeps_the_range() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn count(&self, total: u32) -> String {
                let mut answers = Vec::new();
                for number in 1..=total {
                    answers.push(ask!(q = elicit::<Answer>(format!("Question {number}"))).ok());
                }
                format!("{answers:?}")
            }
        }
    ));
}

#[test]
fn loop_while_and_for() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn gather(&self) -> String {
                let mut repos = Vec::new();
                'more: loop {
                    let repo = ask!(repo = elicit::<Repo>(format!("Repo ({} so far)", repos.len()))).accepted().map_err(|r| r.to_string())?;
                    repos.push(repo.repo);
                    if !repo.more || repos.len() == 5 {
                        break 'more;
                    }
                }
                let mut levels = Vec::new();
                for repo in repos {
                    let level = ask!(notify = elicit::<Level>(format!("Notifications for {repo}?"))).ok();
                    levels.push((repo, level));
                }
                let mut tries = 0;
                while tries < 3 {
                    tries += 1;
                    ask!(ping = elicit::<Confirm>("Again?"));
                }
                format!("{levels:?} {tries}")
            }
        }
    ));
}

#[test]
fn shadowing_an_outer_binding_inside_a_loop() {
    insta::assert_snapshot!(expand_pretty(
        quote!(version = "1"),
        quote! {
            #[tool]
            async fn tags(&self) -> String {
                let name = ask!(name = elicit::<Name>("Name?")).ok().unwrap_or_default().name;
                for repo in ["a".to_owned(), "b".to_owned()] {
                    let name = format!("{name}/{repo}");
                    ask!(tag = elicit::<Tag>(format!("Tag for {name}?")));
                }
                name
            }
        }
    ));
}

#[test]
fn a_closure_is_made_again_on_resume_not_saved() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn helper(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let label = args.team.clone();
                let fail = |refused: Refused| format!("{label}: {}", refused.key);
                let first = ask!(first = elicit::<Name>("First?")).accepted().map_err(fail)?.name;
                let second = ask!(second = elicit::<Name>("Second?")).accepted().map_err(fail)?.name;
                Ok(format!("{first} {second}"))
            }
        }
    ));
}

#[test]
fn a_local_matched_right_after_it_is_made_is_not_saved() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn step(&self) -> String {
                let step = Step::from_env();
                tracing::info!("step {step:?}");
                match step {
                    Step::Ask(label) => {
                        let name = ask!(name = elicit::<Name>(format!("{label}?"))).ok();
                        format!("{label} {name:?}")
                    }
                    Step::Skip => "skipped".to_owned(),
                }
            }
        }
    ));
}

#[test]
fn statements_before_a_matched_local_move_into_the_scrutinee_with_it() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn lookup(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let count = args.count;
                let client = Client::connect();
                let mut entry = client.entry(count);
                let old = consume(entry.name);
                entry.name = format!("{old}+");
                let found = client.find(&entry.name).cloned();
                let name = if let Some(name) = found {
                    name
                } else {
                    ask!(name = elicit::<Name>("Name?")).accepted().map_err(refuse)?.name
                };
                Ok(format!("{name} {count}"))
            }
        }
    ));
}

#[test]
fn operands_computed_before_an_ask_are_bound_first_and_saved() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn tally(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let mut answers = BTreeMap::new();
                for key in args.keys {
                    answers.insert(key.to_uppercase(), ask!(value = elicit::<Num>(format!("{key}?"))).accepted().map_err(refuse)?.num);
                }
                let item = Item { id: next_id(), title: ask!(title = elicit::<Title>("Title?")).accepted().map_err(refuse)?.title };
                Ok(format!("{answers:?} {item:?}"))
            }
        }
    ));
}

#[test]
fn a_format_whose_arguments_ask_takes_them_from_a_match() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                Ok(format!("{} {}", args.team.to_uppercase(), ask!(name = elicit::<Name>("Name?")).accepted().map_err(refuse)?.name))
            }
        }
    ));
}

#[test]
fn a_vec_whose_items_ask_is_made_from_an_array() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn tags(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let tags = vec![args.team.to_uppercase(), ask!(tag = elicit::<Tag>("Tag?")).accepted().map_err(refuse)?.tag];
                Ok(tags.join(","))
            }
        }
    ));
}

#[test]
fn a_for_over_borrowed_items_saves_a_count() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn tags(&self) -> Result<String, String> {
                let teams = vec!["red".to_owned(), "blue".to_owned()];
                let mut tags = Vec::new();
                for (i, team) in teams.iter().enumerate() {
                    let tag = ask!(tag = elicit::<Tag>(format!("Tag {i} for {team}?"))).accepted().map_err(refuse)?.tag;
                    tags.push(format!("{team}:{tag}"));
                }
                Ok(tags.join(","))
            }
        }
    ));
}

#[test]
fn a_let_that_borrows_from_a_held_local_is_made_again() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn label(&self) -> Result<String, String> {
                let handle = Handle::open();
                let text = format!("  key=value  ");
                let t = text.trim();
                handle.close();
                let first = ask!(first = elicit::<Tag>(format!("Tag for {t}?"))).accepted().map_err(refuse)?.tag;
                let (key, value) = t.split_once('=').unwrap_or(("", ""));
                let second = ask!(second = elicit::<Tag>(format!("Tag for {key}?"))).accepted().map_err(refuse)?.tag;
                Ok(format!("{t} {value} {first} {second}"))
            }
        }
    ));
}

#[test]
fn an_arm_that_borrows_from_a_held_local_binds_it_again() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn pick(&self) -> Result<String, String> {
                let repos = vec!["a".to_owned(), "b".to_owned()];
                if let Some(first) = repos.first() {
                    let tag = ask!(tag = elicit::<Tag>(format!("Tag for {first}?"))).accepted().map_err(refuse)?.tag;
                    return Ok(format!("{first} {tag}"));
                }
                Ok(String::new())
            }
        }
    ));
}

#[test]
fn borrows_collected_through_picks_are_collected_again() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn tags(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let tags: Vec<&str> = args.text.split(',').map(str::trim).filter(|t| !t.is_empty()).collect();
                let first = tags[0];
                let keep = ask!(keep = elicit::<Yes>(format!("Keep {first}?"))).accepted().map_err(refuse)?.yes;
                Ok(format!("{} {keep}", tags.join(" ")))
            }
        }
    ));
}

#[test]
fn names_bound_again_from_themselves_are_made_again_from_a_hidden_copy() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let name = args.name;
                let name = name.trim();
                let keep = ask!(keep = elicit::<Yes>(format!("Keep {name}?"))).accepted().map_err(refuse)?.yes;
                let name = name.strip_suffix('!').unwrap_or(name);
                let sure = ask!(sure = elicit::<Yes>(format!("Sure of {name}?"))).accepted().map_err(refuse)?.yes;
                Ok(format!("{name} {keep} {sure}"))
            }
        }
    ));
}

#[test]
fn an_arm_that_binds_a_value_made_again_alone_copies_it_and_makes_the_copy_again() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let name = args.name.trim();
                let greeting = match name {
                    "" => "nobody".to_owned(),
                    n => {
                        let title = ask!(title = elicit::<Text>(format!("Title for {n}?"))).accepted().map_err(refuse)?.text;
                        format!("{title} {n}")
                    }
                };
                Ok(greeting)
            }
        }
    ));
}

#[test]
fn a_name_bound_again_in_an_inner_block_reads_the_old_one_saved_from_a_snapshot_taken_there() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let mut name = args.name;
                let mut said = String::new();
                if args.loud {
                    name.push('!');
                    let name = name.trim();
                    let title = ask!(title = elicit::<Text>(format!("Title for {name}?"))).accepted().map_err(refuse)?.text;
                    said = format!("{title} {name}");
                }
                Ok(said)
            }
        }
    ));
}

#[test]
fn an_if_let_on_a_local_a_pick_binds_binds_it_again_from_the_local_made_again() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let first = args.names.first();
                if let Some(first) = first {
                    let title = ask!(title = elicit::<Text>(format!("Title for {first}?"))).accepted().map_err(refuse)?.text;
                    return Ok(format!("{title} {first}"));
                }
                Ok(String::new())
            }
        }
    ));
}

#[test]
fn a_task_tool_that_starts_its_task_after_a_round() {
    insta::assert_snapshot!(expand_pretty(
        quote!(task = "required"),
        quote! {
            #[tool(description = "Asks a name, then works in a task")]
            async fn greet_later(&self) -> Result<String, String> {
                let name = ask!(user_name = elicit::<Name>("What is your name?"))
                    .accepted()
                    .map_err(|refused| refused.to_string())?
                    .name;
                ask!(start_task());
                let greeting = slow_greeting(&name).await;
                Ok(greeting)
            }
        }
    ));
}

#[test]
fn a_statement_macro_and_a_macro_rules_before_an_ask() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn local_macro(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let secret = args.n * 2;
                let scratch = args.n;
                macro_rules! show { () => { format!("s={}", secret) } }
                bump!(scratch);
                println!("{scratch}");
                let a = ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num;
                Ok(format!("{} {a} {scratch}", show!()))
            }
        }
    ));
}

#[test]
fn a_closure_declared_among_statements_that_fold_and_a_break_that_asks() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn closure_beside(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let tmp = format!("t{}", args.n);
                let scale = args.n;
                let f = |x: i64| x * scale;
                let len = consume(tmp);
                let a = loop {
                    if len > 2 {
                        break ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num;
                    }
                };
                Ok(format!("{}", f(a)))
            }
        }
    ));
}

#[test]
fn arms_that_do_not_ask_run_after_the_dispatch() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn arms(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let label = format!("t{}", args.n);
                let picked = match args.mode.as_str() {
                    "ask" => ask!(a = elicit::<Num>(format!("{label}?"))).accepted().map_err(refuse)?.num,
                    "none" => consume(label),
                    other => consume(format!("{other} {label}")),
                };
                let word = match make_word().as_str() {
                    "ask" => ask!(b = elicit::<Num>("b?")).accepted().map_err(refuse)?.num,
                    other => other.len() as i64,
                };
                Ok(format!("{picked} {word}"))
            }
        }
    ));
}

#[test]
fn a_let_without_a_value_takes_its_value_where_it_is_assigned() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn later(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let label;
                if args.n > 1 {
                    let text = ask!(label = elicit::<Text>("Label?")).accepted().map_err(refuse)?.text;
                    label = text.to_uppercase();
                    tracing::info!("label {label}");
                } else {
                    label = "one".to_owned();
                }
                ask!(more = elicit::<Yes>(format!("More after {label}?")));
                Ok(label)
            }
        }
    ));
}

#[test]
fn lets_without_values_that_one_if_gives_take_their_values_as_a_tuple() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let greeting: String;
                let times;
                if args.n > 2 {
                    greeting = format!("hi{}", args.n);
                    times = 2;
                } else {
                    greeting = ask!(greeting = elicit::<Text>("Greeting?")).accepted().map_err(refuse)?.text;
                    times = 1;
                }
                let name = ask!(name = elicit::<Text>(format!("Name for {greeting}?"))).accepted().map_err(refuse)?.text;
                Ok(greeting.repeat(times) + &name)
            }
        }
    ));
}

#[test]
fn a_local_rebuilt_from_itself_or_consumed_by_a_return_is_saved_from_a_snapshot() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn rebuild(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let mut line = format!("n{}", args.n);
                for i in 0..args.n {
                    line = line + &ask!(part = elicit::<Text>("Part?")).accepted().map_err(refuse)?.text;
                }
                let mut nums = Vec::new();
                loop {
                    nums.push(args.n);
                    if nums.len() > 2 {
                        return Ok(sum_with(nums, ask!(k = elicit::<Num>("K?")).accepted().map_err(refuse)?.num));
                    }
                }
            }
        }
    ));
}

/// `f(&mut log, ask!(..)..)`: the answer is read before `log` is borrowed mutably, as the ask
/// saves `log` (sweep 34).
#[test]
fn a_mutable_borrow_before_an_argument_that_asks() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn pushes(&self) -> String {
                let mut log = vec![1i64];
                push_doubled(&mut log, ask!(a = elicit::<Num>("A?")).accepted().map_or(-1, |n| n.num)).await;
                let mut name = String::new();
                let old = std::mem::replace(&mut name, ask!(b = elicit::<Text>("B?")).ok().map_or_else(String::new, |t| t.text));
                format!("{log:?} {old} {name}")
            }
        }
    ));
}

/// An asking arm carries only the bindings its body reads: one its guard alone reads is not
/// bound again in the arm, where rustc would call it unused (sweep 34).
#[test]
fn an_asking_arm_whose_guard_alone_reads_a_binding() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn guarded(&self) -> String {
                let number = Some(3u32);
                let last = match (&number, 2u32) {
                    (Some(d), n) if *d == n => ask!(exact = elicit::<Yes>("Exact?")).ok().map(|y| y.yes),
                    (Some(d), m) if *d > m => ask!(more = elicit::<Yes>(format!("More than {m}?"))).ok().map(|y| y.yes),
                    _ => None,
                };
                format!("{last:?}")
            }
        }
    ));
}

/// `let`s without a value given theirs by `x = value;` past an ask and another `let`: the `let`
/// stays, `x` is not saved before its assignment, and is restored there (sweep 34).
#[test]
fn lets_without_values_given_after_an_ask() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn deferred(&self) -> String {
                let total: i64;
                let label: String;
                let first = ask!(first = elicit::<Num>("First?")).accepted().map_or(0, |n| n.num);
                total = first + 1;
                let doubled = first * 2;
                let second = ask!(second = elicit::<Text>(format!("Second after {total}?"))).ok().map(|t| t.text);
                label = second.unwrap_or_else(|| "none".to_owned());
                format!("{total} {doubled} {label}")
            }
        }
    ));
}

/// An `if` and a `while` whose conditions chain `let`s, with asks in their bodies: the chain
/// is evaluated into an `Option` of the bindings the body reads (`n` only, not `s` nor `t`,
/// which the conditions read), matched like any `match` whose arms ask; the `while` becomes a
/// `loop` that `break`s when the chain fails (sweep 37).
#[test]
fn let_chains_in_an_if_and_a_while_that_ask() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn chains(&self, Parameters(args): Parameters<Args>) -> String {
                let mut queue = args.items;
                if let Some(s) = queue.first()
                    && s.len() < 3
                    && let Ok(mut n) = s.parse::<u32>()
                {
                    let more = ask!(more = elicit::<Num>(format!("More than {n}?"))).accepted().map_or(0, |m| m.num);
                    n += more;
                    tracing::info!("{n}");
                } else {
                    tracing::info!("none");
                }
                while let Some(t) = queue.pop()
                    && let Some(c) = t.chars().next()
                {
                    let keep = ask!(keep = elicit::<Yes>(format!("Keep {c}?"))).ok().is_some_and(|y| y.yes);
                    if !keep {
                        break;
                    }
                }
                format!("{queue:?}")
            }
        }
    ));
}

#[test]
fn a_local_moved_then_given_a_new_value_is_saved_as_a_binding_of_its_own() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn renames(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                // In its own block: a new binding from the assignment on.
                let mut items = args.items;
                let total = sum(items);
                items = ask!(items = elicit::<Items>(format!("After {total}?"))).accepted()?.items;
                let mut name = args.name;
                loop {
                    // In an inner block: dead at the ask that overwrites it, saved from the
                    // snapshot taken after its `let`.
                    register(name)?;
                    name = ask!(next = elicit::<Name>("Next?")).accepted()?.name;
                    if name.is_empty() {
                        break;
                    }
                    // Given anew before an ask of the same pass: restored there.
                    register(name)?;
                    name = format!("{total}");
                    let more = ask!(more = elicit::<Yes>(format!("More than {name}?"))).ok().is_some_and(|y| y.yes);
                    if !more {
                        break;
                    }
                }
                Ok(format!("{items:?} {name}"))
            }
        }
    ));
}

/// A local moved in a loop and dead at the asks after: no path from them reads it again
/// (`dead_after`), so they save the snapshot taken after its `let`; and one given its new value
/// by each branch of an `if`, taken as one assignment (`given_anew::one_assignment`).
#[test]
fn a_local_moved_and_never_read_again_or_given_anew_by_each_branch() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn leaves(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
                let mut name = args.name;
                let picked = loop {
                    let answer = ask!(first = elicit::<Name>(format!("After {name}?"))).accepted()?.name;
                    if answer.is_empty() {
                        continue;
                    }
                    register(name)?;
                    let more = ask!(more = elicit::<Name>("More?")).accepted()?.name;
                    break format!("{answer}{more}");
                };
                let mut label = args.label;
                let n = consume(label);
                let t = ask!(t = elicit::<Name>(format!("After {n}?"))).accepted()?.name;
                if t.is_empty() {
                    label = picked;
                } else {
                    label = t;
                }
                let last = ask!(last = elicit::<Name>(format!("Last for {label}?"))).accepted()?.name;
                Ok(format!("{label} {last}"))
            }
        }
    ));
}

/// A field moved out of a local that a later ask saves is cloned where it moves
/// (`moved_fields`), so the ask saves the local whole; the field borrowed in place is not.
#[test]
fn a_field_moved_out_of_a_local_held_across_an_ask() {
    insta::assert_snapshot!(expand_pretty(
        quote!(),
        quote! {
            #[tool]
            async fn book(&self) -> Result<String, String> {
                let booking = ask!(booking = elicit::<Booking>("Who?")).accepted()?;
                let guest = booking.guest;
                let nights = booking.nights.len();
                let sure = ask!(sure = elicit::<Yes>(format!("Book {guest}?"))).accepted()?.yes;
                Ok(format!("{guest} {nights} {} {sure}", booking.room))
            }
        }
    ));
}
