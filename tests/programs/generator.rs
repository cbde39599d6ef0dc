//! Random tool bodies for `generated_programs.rs`: ordinary Rust over integers, strings,
//! vectors and closures, with asks in the places the README allows them (a `let`, an
//! assignment, a compound assignment, a condition, a scrutinee, a call's argument, a `break`
//! value, the `else` of a `let .. else`), inside branches, matches with bindings, loops,
//! labeled loops and blocks, with early returns and `?`, and texts and vectors moved or
//! borrowed into calls that ask, moved and then given a new value by an ask (or by each
//! branch of an `if`), or moved in a loop before an ask and a `break`. Some rounds ask two or
//! three questions at once (`let (a, b) = ask!(..)`, or matched together with bindings in the
//! arms). Some asks come after an argument or an array's element that computes first
//! (`i64::wrapping_add(x.len() as i64, ask!(..)..)`, a block that notes that it ran), or stand
//! in a `format!`'s arguments. Some `let`s only borrow from a held text or list and are read
//! after an ask (`let r = t.trim();`). Records' fields (of a `let`, a loop's item or a `match` arm's binding) are read,
//! changed, moved and given new values one by one, the others read after later asks. Some
//! patterns take the name of an outer integer, which they hide in their arm or body. Most
//! questions ask for a number (`Num`), some for a word (`Word`, held as a `String`), among
//! them the word that fills in an optional text unwrapped under its own name (`let o = match
//! o { .. }`).
//!
//! Every body is deterministic and bounded: its loops run at most a few times, arithmetic
//! wraps, and it asks at most `MOST_ASKS` questions, so a script of that many answers always
//! suffices. Bodies keep to plain Rust's rules and the documented ones (README, "What does not
//! work yet"): they never shadow a binding that changes or that a closure captures, use no
//! `move` closure, and move a local only in the loop it was made in, unless a statement right
//! after gives it a new value.

/// One generated body and the scripts it runs with.
pub struct Program {
    pub name: String,
    /// The body, a block.
    pub body: String,
    /// `(n, answers)`: `Some(num)` accepts with that number, `None` declines.
    pub scripts: Vec<(u32, Vec<Option<i64>>)>,
}

/// The most questions a body asks, on any path.
const MOST_ASKS: u32 = 16;
/// How deep statements nest.
const MOST_DEPTH: usize = 3;

/// `count` bodies from `seed`; the same seed always gives the same bodies.
pub fn programs(seed: u64, count: usize) -> Vec<Program> {
    (0..count)
        .map(|index| {
            let mut rng =
                fastrand::Rng::with_seed(seed.wrapping_mul(1_000_003).wrapping_add(index as u64));
            let body = Generator::new(rng.u64(..)).body();
            let scripts = (0..3)
                .map(|_| {
                    let answers = (0..MOST_ASKS)
                        .map(|_| (rng.u8(..100) >= 12).then(|| rng.i64(-4..=15)))
                        .collect();
                    (rng.u32(0..=5), answers)
                })
                .collect();
            Program {
                name: format!("program_{index}"),
                body,
                scripts,
            }
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Int,
    Text,
    List,
    Func,
    /// A `Record` of a text, a list and an integer, whose fields are bindings of their own
    /// kinds named `r1.text`, `r1.list` and `r1.n`: moving a field hides the whole record.
    Record,
    /// A `&'static str`: a string literal, or an item of the body's `const LABELS`.
    Label,
}

struct Var {
    name: String,
    kind: Kind,
    /// How many loops were around its `let`: it may be moved only at that depth.
    loop_depth: usize,
    moved: bool,
    /// The body may assign it (declared `mut`, and not a loop's own counter).
    assignable: bool,
    /// Declared `mut`, or captured by a closure: never shadowed.
    pinned: bool,
    /// Moved and given a new value by an assignment, which mrtr may make a new binding of
    /// its branch: a `let` that borrows from it is not made again (README).
    given_anew: bool,
}

struct Loop {
    label: String,
    /// A `loop` whose `break`s carry an integer.
    breaks_with_value: bool,
}

struct Generator {
    rng: fastrand::Rng,
    names: usize,
    sites: usize,
    scopes: Vec<Vec<Var>>,
    loops: Vec<Loop>,
    /// How many times the current statement may run: the product of its loops' bounds.
    weight: u32,
    /// Questions asked on the worst path so far.
    asks: u32,
    out: String,
    indent: usize,
    /// Whether the body has its `ask!(start_task())` already.
    task_start_written: bool,
    /// Whether a label is taken from the body's `const LABELS`, which is then declared.
    labels_used: bool,
}

impl Generator {
    fn new(seed: u64) -> Self {
        Self {
            rng: fastrand::Rng::with_seed(seed),
            names: 0,
            sites: 0,
            scopes: vec![Vec::new()],
            loops: Vec::new(),
            weight: 1,
            asks: 0,
            out: String::new(),
            indent: 1,
            task_start_written: false,
            labels_used: false,
        }
    }

    fn body(mut self) -> String {
        self.out.push_str("{\n");
        let count = self.rng.usize(5..=10);
        for _ in 0..count {
            self.statement(0);
        }
        // Some texts and lists are not read at the end, so that they die at earlier asks.
        let candidates: Vec<(String, bool)> = self
            .visible()
            .filter(|var| var.kind != Kind::Func)
            .map(|var| (var.name.clone(), var.kind == Kind::Int))
            .collect();
        let shown: Vec<String> = candidates
            .into_iter()
            .filter(|(_, int)| *int || self.rng.bool())
            .map(|(name, _)| name)
            .collect();
        let format = vec!["{:?}"; shown.len()].join(" ");
        let args: String = shown.iter().map(|name| format!(", {name}")).collect();
        self.line(&format!("Ok(format!(\"end {format}\"{args}))"));
        self.out.push_str("}\n");
        if self.labels_used {
            let labels = "    const LABELS: [&str; 3] = [\"red\", \"green\", \"blue\"];\n";
            self.out.insert_str("{\n".len(), labels);
        }
        self.out
    }

    // ---- bookkeeping ----

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.names += 1;
        format!("{prefix}{}", self.names)
    }

    fn site(&mut self) -> usize {
        self.sites += 1;
        self.sites
    }

    fn declare(&mut self, name: &str, kind: Kind, assignable: bool, pinned: bool) {
        let loop_depth = self.loops.len();
        self.scopes.last_mut().unwrap().push(Var {
            name: name.to_owned(),
            kind,
            loop_depth,
            moved: false,
            assignable,
            pinned,
            given_anew: false,
        });
    }

    /// A `Record` and its fields, movable `loops_inside` loops deeper than here (a loop's
    /// item is made anew on each pass).
    fn declare_record(&mut self, name: &str, loops_inside: usize) {
        self.declare(name, Kind::Record, false, true);
        self.declare(&format!("{name}.text"), Kind::Text, true, true);
        self.declare(&format!("{name}.list"), Kind::List, true, true);
        self.declare(&format!("{name}.n"), Kind::Int, true, true);
        for var in self.scopes.last_mut().unwrap().iter_mut().rev().take(4) {
            var.loop_depth += loops_inside;
        }
    }

    /// Visible bindings, the innermost of each name only.
    fn visible(&self) -> impl Iterator<Item = &Var> {
        let all: Vec<&Var> = self.scopes.iter().flatten().collect();
        let mut seen = std::collections::HashSet::new();
        let mut visible: Vec<&Var> = all
            .into_iter()
            .rev()
            .filter(|var| seen.insert(var.name.clone()))
            .filter(|var| !var.moved)
            .collect();
        visible.reverse();
        visible.into_iter()
    }

    fn pick(&mut self, wanted: impl Fn(&Var) -> bool) -> Option<String> {
        let names: Vec<String> = self
            .visible()
            .filter(|var| wanted(var))
            .map(|var| var.name.clone())
            .collect();
        (!names.is_empty()).then(|| names[self.rng.usize(..names.len())].clone())
    }

    fn pick_kind(&mut self, kind: Kind) -> Option<String> {
        self.pick(|var| var.kind == kind)
    }

    /// A text or list that may be moved here, marked as moved.
    fn take_to_move(&mut self, kind: Kind) -> Option<String> {
        let depth = self.loops.len();
        let name = self.pick(|var| var.kind == kind && var.loop_depth == depth)?;
        self.mark_moved(&name);
        Some(name)
    }

    /// A name for a pattern's binding: sometimes that of a visible integer, which the pattern
    /// then hides in its arm or body (`Some(v3) => ..` with an outer `v3`).
    fn pattern_name(&mut self) -> String {
        match self.pick(|var| var.kind == Kind::Int && !var.pinned) {
            Some(outer) if self.chance(60) => outer,
            _ => self.fresh("i"),
        }
    }

    fn mark_moved(&mut self, name: &str) {
        self.set_moved(name, true);
    }

    fn set_moved(&mut self, name: &str, moved: bool) {
        if moved && let Some((record, _)) = name.split_once('.') {
            self.set_moved(record, true);
        }
        for scope in self.scopes.iter_mut().rev() {
            if let Some(var) = scope.iter_mut().rev().find(|var| var.name == name) {
                var.moved = moved;
                return;
            }
        }
    }

    fn pin(&mut self, name: &str) {
        for scope in self.scopes.iter_mut().rev() {
            if let Some(var) = scope.iter_mut().rev().find(|var| var.name == name) {
                var.pinned = true;
                return;
            }
        }
    }

    fn chance(&mut self, percent: u8) -> bool {
        self.rng.u8(..100) < percent
    }

    /// Whether one more question fits the budget here, counting it as asked if so.
    fn take_ask(&mut self) -> bool {
        if self.asks + self.weight <= MOST_ASKS && self.chance(80) {
            self.asks += self.weight;
            true
        } else {
            false
        }
    }

    // ---- expressions ----

    /// An integer expression without asks.
    fn int(&mut self, depth: usize) -> String {
        let choice = if depth == 0 {
            self.rng.u8(0..3)
        } else {
            self.rng.u8(0..13)
        };
        let fallback = |this: &mut Self| format!("{}i64", this.rng.i64(-3..=12));
        match choice {
            0 => fallback(self),
            1 => self.pick_kind(Kind::Int).unwrap_or_else(|| fallback(self)),
            2 => "(args.n as i64)".to_owned(),
            3 => format!("{}.wrapping_add({})", self.int_atom(), self.int(depth - 1)),
            4 => format!("{}.wrapping_mul({})", self.int_atom(), self.rng.i64(2..=3)),
            5 => format!(
                "({}).rem_euclid({})",
                self.int(depth - 1),
                self.rng.i64(2..=7)
            ),
            6 => match self.pick(|var| matches!(var.kind, Kind::Text | Kind::Label)) {
                Some(text) => format!("({text}.len() as i64)"),
                None => fallback(self),
            },
            7 => match self.pick_kind(Kind::List) {
                Some(list) => format!("({list}.len() as i64)"),
                None => fallback(self),
            },
            8 => match self.pick_kind(Kind::List) {
                Some(list) => format!("{list}.iter().fold(0i64, |acc, x| acc.wrapping_add(*x))"),
                None => fallback(self),
            },
            9 => match self.pick_kind(Kind::Func) {
                Some(func) => format!("{func}({})", self.int(depth - 1)),
                None => fallback(self),
            },
            10 => format!("twice({}).await", self.int(depth - 1)),
            11 => format!(
                "(if {} > {} {{ {} }} else {{ {} }})",
                self.int(depth - 1),
                self.int(depth - 1),
                self.int(depth - 1),
                self.int(depth - 1)
            ),
            _ => format!("{}.wrapping_sub({})", self.int_atom(), self.int(depth - 1)),
        }
    }

    /// A variable or a literal, fit to take a method call.
    /// A `&'static str`: a literal, one chosen by a branch, an item of `LABELS`, or a label's
    /// copy.
    fn label(&mut self) -> String {
        let site = self.site();
        match self.rng.u8(0..5) {
            0 => format!("\"a{site}\""),
            1 => {
                let (a, b) = (self.int(1), self.int(1));
                format!("if {a} > {b} {{ \"x{site}\" }} else {{ \"y{site}\" }}")
            }
            2 => {
                self.labels_used = true;
                format!("LABELS[({}).rem_euclid(3) as usize]", self.int(1))
            }
            3 => format!(
                "match ({}).rem_euclid(2) {{ 0 => \"even\", _ => \"odd\" }}",
                self.int(1)
            ),
            _ => self
                .pick(|var| var.kind == Kind::Label)
                .unwrap_or_else(|| format!("\"b{site}\"")),
        }
    }

    fn int_atom(&mut self) -> String {
        self.pick_kind(Kind::Int)
            .unwrap_or_else(|| format!("{}i64", self.rng.i64(0..=9)))
    }

    /// A question for an integer, in one of the forms authors write.
    fn ask(&mut self) -> String {
        let question = self.question();
        let question = format!("ask!({question})");
        self.number_from(&question)
    }

    /// A question for a word, as a `String`; its budget is taken by the caller.
    fn word_ask(&mut self) -> String {
        let question = self.question().replace("elicit::<Num>", "elicit::<Word>");
        match self.rng.u8(0..2) {
            0 => {
                format!("ask!({question}).accepted().map(|answer| answer.word).unwrap_or_default()")
            }
            _ => format!("ask!({question}).accepted().map_err(refuse)?.word"),
        }
    }

    /// `key = elicit::<Num>(message)`, the message showing a few locals.
    fn question(&mut self) -> String {
        let site = self.site();
        let key = format!("q{site}");
        let shown: Vec<String> = (0..self.rng.usize(0..=2))
            .filter_map(|_| self.pick(|var| var.kind != Kind::Func))
            .collect();
        let message = if shown.is_empty() {
            format!("\"{key}\"")
        } else {
            let holes = vec!["{:?}"; shown.len()].join(" ");
            format!("format!(\"{key} {holes}\", {})", shown.join(", "))
        };
        format!("{key} = elicit::<Num>({message})")
    }

    /// The number in `answer`, an `Elicited<Num>`, or a stand-in for a refusal.
    fn number_from(&mut self, answer: &str) -> String {
        match self.rng.u8(0..3) {
            0 => format!("{answer}.accepted().map(|answer| answer.num).unwrap_or(-1)"),
            1 => format!("{answer}.accepted().map_err(refuse)?.num"),
            _ => format!(
                "match {answer} {{ Elicited::Accept(Num {{ num }}) => num, Elicited::Decline(_) => -2, Elicited::Cancel(_) => -3 }}"
            ),
        }
    }

    /// Several questions in one round: `ask!(a = .., b = ..)`, if they fit the budget.
    fn round_of_questions(&mut self) -> Option<(usize, String)> {
        let count = self.rng.usize(2..=3);
        if self.asks + self.weight * count as u32 > MOST_ASKS {
            return None;
        }
        self.asks += self.weight * count as u32;
        let questions: Vec<String> = (0..count).map(|_| self.question()).collect();
        Some((count, format!("ask!({})", questions.join(", "))))
    }

    /// An integer expression that may ask.
    fn int_or_ask(&mut self, depth: usize) -> String {
        if !self.take_ask() {
            return self.int(depth);
        }
        let ask = self.ask();
        match self.rng.u8(0..6) {
            0 => format!("twice({ask}).await"),
            1 => format!("({ask}).wrapping_add({})", self.int(1)),
            2 => format!("{}.wrapping_add({ask})", self.int_atom()),
            _ => ask,
        }
    }

    /// An integer that asks after computing something first in the same expression: an
    /// argument, an array's element, or a block that notes that it ran.
    fn computed_before_ask(&mut self) -> String {
        if !self.take_ask() {
            return self.int(2);
        }
        let ask = self.ask();
        match self.rng.u8(0..4) {
            0 => format!("i64::wrapping_add({}, {ask})", self.int(2)),
            1 => {
                let site = self.site();
                let (shown, value) = (self.int(1), self.int(1));
                format!(
                    "i64::wrapping_sub({{ note!(args, \"b{site} {{}}\", {shown}); {value} }}, {ask})"
                )
            }
            2 => format!(
                "[{}, {ask}].iter().fold(0i64, |acc, x| acc.wrapping_add(*x))",
                self.int(1)
            ),
            _ => match self.pick_kind(Kind::Text) {
                Some(text) => format!("text_len_with(&{text}.to_uppercase(), {ask})"),
                None => format!("i64::wrapping_mul(twice({}).await, {ask})", self.int(1)),
            },
        }
    }

    fn condition(&mut self, may_ask: bool) -> String {
        match self.rng.u8(0..5) {
            0 if may_ask => format!("{} > {}", self.int_or_ask(1), self.rng.i64(-1..=8)),
            1 => match self.pick_kind(Kind::Text) {
                Some(text) => format!("{text}.len() > {}", self.rng.usize(0..=6)),
                None => format!("{} < {}", self.int(2), self.int(1)),
            },
            2 => match self.pick_kind(Kind::List) {
                Some(list) => format!("{list}.contains(&{})", self.int(1)),
                None => format!("{} == {}", self.int(2), self.int(1)),
            },
            _ => format!("{} > {}", self.int(2), self.int(2)),
        }
    }

    // ---- statements ----

    fn block(&mut self, depth: usize) {
        self.scopes.push(Vec::new());
        self.indent += 1;
        let count = self.rng.usize(1..=(4 - depth.min(2)));
        for _ in 0..count {
            self.statement(depth + 1);
        }
        self.indent -= 1;
        self.scopes.pop();
    }

    /// `match scrutinee { Some(pattern) => { .. } None => { .. } }`, where `declare` makes the
    /// pattern's bindings for the first arm.
    fn match_some(
        &mut self,
        scrutinee: &str,
        pattern: &str,
        declare: impl FnOnce(&mut Self),
        depth: usize,
    ) {
        self.line(&format!("match {scrutinee} {{"));
        self.line(&format!("    Some({pattern}) => {{"));
        self.indent += 1;
        self.scopes.push(Vec::new());
        declare(self);
        self.block(depth);
        self.scopes.pop();
        self.indent -= 1;
        self.line("    }");
        self.line("    None => {");
        self.indent += 1;
        self.block(depth);
        self.indent -= 1;
        self.line("    }");
        self.line("}");
    }

    /// Runs `inner` as a loop's body: `bound` more times at most.
    fn in_loop(&mut self, bound: u32, label: &str, breaks_with_value: bool, depth: usize) {
        let weight = self.weight;
        self.weight *= bound.max(1);
        self.loops.push(Loop {
            label: label.to_owned(),
            breaks_with_value,
        });
        self.block(depth);
        self.loops.pop();
        self.weight = weight;
    }

    fn statement(&mut self, depth: usize) {
        let nested = depth < MOST_DEPTH;
        let choice = self.rng.u8(0..39);
        match choice {
            0..=2 => {
                let name = self.fresh("v");
                let value = if self.chance(30) {
                    self.computed_before_ask()
                } else {
                    self.int_or_ask(2)
                };
                let assignable = self.chance(50);
                let mutability = if assignable { "mut " } else { "" };
                self.line(&format!("let {mutability}{name} = {value};"));
                self.declare(&name, Kind::Int, assignable, assignable);
            }
            3 | 4 => match self.pick(|var| var.kind == Kind::Int && var.assignable) {
                Some(name) => {
                    let value = self.int_or_ask(2);
                    match self.rng.u8(0..3) {
                        // `^=` cannot overflow.
                        0 => self.line(&format!("{name} ^= {value};")),
                        1 if value != name => self.line(&format!("{name} = {value};")),
                        _ => self.line(&format!("{name} = {name}.wrapping_add({value});")),
                    }
                }
                None => self.note(),
            },
            5 => match self.pick(|var| var.kind == Kind::Int && !var.pinned) {
                Some(name) => {
                    let value = self.int(1);
                    self.line(&format!("let {name} = {name}.wrapping_add({value});"));
                    self.declare(&name, Kind::Int, false, false);
                }
                None => self.note(),
            },
            6 if self.chance(30) => {
                let name = self.fresh("l");
                let value = self.label();
                let assignable = self.chance(50);
                let mutability = if assignable { "mut " } else { "" };
                self.line(&format!("let {mutability}{name} = {value};"));
                self.declare(&name, Kind::Label, assignable, assignable);
            }
            6 => {
                let name = self.fresh("s");
                if self.chance(25) && self.take_ask() {
                    let word = self.word_ask();
                    let value = if self.chance(40) {
                        let shown = self.int(1);
                        format!("format!(\"{{}}-{{}}\", {shown}, {word})")
                    } else {
                        word
                    };
                    self.line(&format!("let mut {name} = {value};"));
                } else if self.chance(50) {
                    self.line(&format!("let mut {name} = String::new();"));
                } else {
                    let value = self.int(1);
                    self.line(&format!("let mut {name} = format!(\"t{{}}\", {value});"));
                }
                self.declare(&name, Kind::Text, true, true);
            }
            7 if self.chance(30) => match self.pick(|var| var.kind == Kind::Label) {
                Some(label) => match self.pick_kind(Kind::Text) {
                    Some(text) if self.rng.bool() => {
                        self.line(&format!("{text}.push_str({label});"))
                    }
                    _ => match self.pick(|var| var.kind == Kind::Label && var.assignable) {
                        Some(assigned) => {
                            let value = self.label();
                            self.line(&format!("{assigned} = {value};"));
                        }
                        None => self.note(),
                    },
                },
                None => self.note(),
            },
            7 => match self.pick_kind(Kind::Text) {
                Some(text) if self.chance(30) && self.take_ask() => {
                    let word = self.word_ask();
                    self.line(&format!("{text}.push_str(&{word});"));
                }
                Some(text) => {
                    let value = self.int_or_ask(1);
                    self.line(&format!("{text}.push_str(&({value}).to_string());"));
                    self.line(&format!("{text}.push(',');"));
                }
                None => self.note(),
            },
            8 => {
                let name = self.fresh("w");
                match self.rng.u8(0..3) {
                    0 => {
                        let value = self.int(1);
                        self.line(&format!("let mut {name} = Vec::new();"));
                        self.line(&format!("{name}.push({value});"));
                    }
                    1 => self.line(&format!("let mut {name}: Vec<i64> = Vec::new();")),
                    _ => {
                        let (a, b) = (self.int(1), self.int(1));
                        self.line(&format!("let mut {name} = vec![{a}, {b}];"));
                    }
                }
                self.declare(&name, Kind::List, true, true);
            }
            9 => match self.pick_kind(Kind::List) {
                Some(list) => match self.rng.u8(0..4) {
                    0 => self.line(&format!("{list}.sort();")),
                    1 => {
                        let bound = self.rng.i64(-2..=8);
                        self.line(&format!("{list}.retain(|x| *x > {bound});"));
                    }
                    _ => {
                        let value = self.int_or_ask(1);
                        self.line(&format!("{list}.push({value});"));
                    }
                },
                None => self.note(),
            },
            10 => self.note(),
            11 => {
                let name = self.fresh("f");
                // Not `move`: a closure that owns its captures cannot be held across an ask.
                // It borrows what it reads, so that must not change while it lives.
                match self.pick(|var| var.kind == Kind::Int && !var.assignable) {
                    Some(captured) if self.chance(70) => {
                        self.pin(&captured);
                        self.line(&format!(
                            "let {name} = |x: i64| x.wrapping_add({captured}).wrapping_mul(2);"
                        ));
                    }
                    _ => self.line(&format!("let {name} = |x: i64| x.wrapping_sub(1);")),
                }
                self.declare(&name, Kind::Func, false, true);
            }
            12 if nested => {
                let condition = self.condition(true);
                self.line(&format!("if {condition} {{"));
                self.block(depth);
                if self.chance(60) {
                    self.line("} else {");
                    self.block(depth);
                }
                self.line("}");
            }
            13 if nested => {
                let scrutinee = self.int_or_ask(1);
                self.line(&format!("match ({scrutinee}).rem_euclid(3) {{"));
                for arm in ["0", "1", "_"] {
                    self.line(&format!("    {arm} => {{"));
                    self.indent += 1;
                    self.block(depth);
                    self.indent -= 1;
                    self.line("    }");
                }
                self.line("}");
            }
            14 if nested => {
                let item = self.fresh("i");
                let label = self.fresh("'l");
                let bound = self.rng.u32(0..=3);
                let range = if self.chance(50) {
                    format!("0..{bound}")
                } else {
                    format!("0..({}).rem_euclid({})", self.int(1), bound + 1)
                };
                self.line(&format!("{label}: for {item} in {range} {{"));
                self.scopes.push(Vec::new());
                self.line(&format!("    let {item} = {item} as i64;"));
                self.declare(&item, Kind::Int, false, false);
                self.in_loop(bound, &label, false, depth);
                self.scopes.pop();
                self.line("}");
            }
            // A loop over items borrowed from a held list: the list is hidden in the body,
            // which may neither change nor move it.
            15 if nested && self.chance(50) => {
                match self.pick(|var| var.kind == Kind::List && !var.name.contains('.')) {
                    Some(list) => {
                        let item = self.pattern_name();
                        let label = self.fresh("'l");
                        let bound = self.rng.u32(1..=3);
                        let (pattern, iterable) = match self.rng.u8(0..10) {
                            0 => (format!("&{item}"), format!("{list}.iter()")),
                            1 => (format!("&{item}"), format!("{list}.iter().rev()")),
                            // Through a `filter` that reads, run again on resume.
                            2 => (
                                format!("&{item}"),
                                format!("{list}.iter().filter(|x| **x > 1)"),
                            ),
                            3 => (
                                format!("(_, &{item})"),
                                format!("{list}.iter().filter(|x| **x % 2 == 0).enumerate()"),
                            ),
                            4 => (
                                format!("(_, &{item})"),
                                format!("{list}.iter().enumerate().filter(|(i, _)| i % 2 == 0)"),
                            ),
                            // Joined with a range or with items of the same list, and through
                            // a `skip_while` that reads.
                            6 => (format!("(&{item}, _)"), format!("{list}.iter().zip(1..)")),
                            7 => (
                                format!("(_, &{item})"),
                                format!("{list}.iter().zip({list}.iter().rev())"),
                            ),
                            8 => (
                                format!("&{item}"),
                                format!("{list}.iter().chain(&{list}).skip_while(|x| **x < 1)"),
                            ),
                            _ => (
                                format!("(_, &{item})"),
                                format!("{list}.iter().enumerate()"),
                            ),
                        };
                        self.line(&format!(
                            "{label}: for {pattern} in {iterable}.take({bound}) {{"
                        ));
                        self.set_moved(&list, true);
                        self.scopes.push(Vec::new());
                        self.declare(&item, Kind::Int, false, false);
                        // Most such loops ask first, so their item is made again on resume.
                        let weight = self.weight;
                        self.weight *= bound;
                        let value = self.int_or_ask(1);
                        self.weight = weight;
                        let name = self.fresh("v");
                        self.line(&format!("    let {name} = {item}.wrapping_add({value});"));
                        self.declare(&name, Kind::Int, false, false);
                        self.in_loop(bound, &label, false, depth);
                        self.scopes.pop();
                        self.set_moved(&list, false);
                        self.line("}");
                    }
                    None => self.note(),
                }
            }
            15 if nested => match self.pick_kind(Kind::List) {
                Some(list) => {
                    let item = self.pattern_name();
                    let label = self.fresh("'l");
                    let bound = self.rng.u32(1..=3);
                    self.line(&format!(
                        "{label}: for {item} in {list}.clone().into_iter().take({bound}) {{"
                    ));
                    self.scopes.push(Vec::new());
                    self.declare(&item, Kind::Int, false, false);
                    self.in_loop(bound, &label, false, depth);
                    self.scopes.pop();
                    self.line("}");
                }
                None => self.note(),
            },
            16 if nested => {
                let counter = self.fresh("c");
                let label = self.fresh("'l");
                let bound = self.rng.u32(1..=3);
                self.line(&format!("let mut {counter} = 0i64;"));
                self.declare(&counter, Kind::Int, false, true);
                self.line(&format!("{label}: while {counter} < {bound} {{"));
                self.line(&format!("    {counter} += 1;"));
                self.in_loop(bound, &label, false, depth);
                self.line("}");
            }
            17 if nested => {
                let counter = self.fresh("c");
                let label = self.fresh("'l");
                let name = self.fresh("v");
                let bound = self.rng.u32(0..=2);
                self.line(&format!("let mut {counter} = 0i64;"));
                self.declare(&counter, Kind::Int, false, true);
                self.line(&format!("let {name} = {label}: loop {{"));
                self.line(&format!("    {counter} += 1;"));
                // The final `break` runs once more than the body.
                let weight = self.weight;
                self.weight *= bound + 1;
                let value = self.int_or_ask(1);
                self.weight = weight;
                self.line(&format!("    if {counter} > {bound} {{ break {value}; }}"));
                self.in_loop(bound, &label, true, depth);
                self.line("};");
                self.declare(&name, Kind::Int, false, false);
            }
            18 if nested => match self.pick_kind(Kind::List) {
                Some(list) => {
                    let item = self.pattern_name();
                    self.line(&format!("if let Some({item}) = {list}.last().copied() {{"));
                    self.scopes.push(Vec::new());
                    self.declare(&item, Kind::Int, false, false);
                    self.block(depth);
                    self.scopes.pop();
                    self.line("} else {");
                    self.block(depth);
                    self.line("}");
                }
                None => self.note(),
            },
            19 => {
                // Rarely true, so that most runs go on.
                let condition = format!("({}).rem_euclid(5) == 4", self.int(2));
                let site = self.site();
                let value = self.int(1);
                if self.chance(70) {
                    self.line(&format!(
                        "if {condition} {{ return Ok(format!(\"early{site} {{}}\", {value})); }}"
                    ));
                } else {
                    self.line(&format!(
                        "if {condition} {{ return Err(format!(\"failed{site} {{}}\", {value})); }}"
                    ));
                }
            }
            20 => {
                let name = self.fresh("v");
                let value = self.int_or_ask(1);
                self.line(&format!("let {name} = check({value})?;"));
                self.declare(&name, Kind::Int, false, false);
            }
            25 | 26 => match self.pick(|var| var.kind == Kind::List) {
                // A change right before a statement that reads the local and then asks.
                Some(list) => {
                    let value = self.int(1);
                    self.line(&format!("{list}.push({value});"));
                    self.hand_over(Kind::List, Some(list));
                }
                None => self.note(),
            },
            27 if nested => match self.pick_kind(Kind::List) {
                Some(list) => {
                    let item = self.pattern_name();
                    let declare = |this: &mut Self| this.declare(&item, Kind::Int, false, false);
                    self.match_some(
                        &format!("{list}.first()"),
                        &format!("&{item}"),
                        declare,
                        depth,
                    );
                }
                None => self.note(),
            },
            28 => match self.pick_kind(Kind::List) {
                Some(list) => {
                    let item = self.fresh("i");
                    let site = self.site();
                    self.line(&format!(
                        "let Some({item}) = {list}.last().copied() else {{"
                    ));
                    self.indent += 1;
                    let value = self.int_or_ask(1);
                    self.line(&format!("let reason = {value};"));
                    self.line(&format!("note!(args, \"e{site} {{}}\", reason);"));
                    let plain_loop = self
                        .loops
                        .iter()
                        .rposition(|target| !target.breaks_with_value);
                    match plain_loop {
                        Some(target) if self.chance(60) => {
                            let label = self.loops[target].label.clone();
                            self.line(&format!("continue {label};"));
                        }
                        _ => {
                            self.line(&format!("return Ok(format!(\"else{site} {{}}\", reason));"))
                        }
                    }
                    self.indent -= 1;
                    self.line("};");
                    self.declare(&item, Kind::Int, false, false);
                }
                None => self.note(),
            },
            29 => match self.round_of_questions() {
                // The answers held as they came, turned into numbers after the next statement.
                Some((count, round)) => {
                    let answers: Vec<String> = (0..count).map(|_| self.fresh("a")).collect();
                    self.line(&format!("let ({}) = {round};", answers.join(", ")));
                    if self.chance(50) {
                        self.statement(depth);
                    }
                    let numbers: Vec<String> = answers
                        .iter()
                        .map(|answer| self.number_from(answer))
                        .collect();
                    let name = self.fresh("v");
                    let sum = numbers
                        .iter()
                        .skip(1)
                        .fold(format!("({})", numbers[0]), |sum, number| {
                            format!("{sum}.wrapping_mul(31).wrapping_add({number})")
                        });
                    self.line(&format!("let {name} = {sum};"));
                    self.declare(&name, Kind::Int, false, false);
                }
                None => self.note(),
            },
            30 if nested => match self.round_of_questions() {
                // The round's answers matched together, with bindings in the arms.
                Some((count, round)) => {
                    let (first, second) = (self.fresh("b"), self.fresh("b"));
                    let rest = ", _".repeat(count - 2);
                    self.line(&format!("match {round} {{"));
                    let arms = [
                        (
                            format!(
                                "(Elicited::Accept(Num {{ num: {first} }}), Elicited::Accept(Num {{ num: {second} }}){rest})"
                            ),
                            vec![first.clone(), second],
                        ),
                        (
                            format!("(Elicited::Accept(Num {{ num: {first} }}), ..)"),
                            vec![first],
                        ),
                        ("_".to_owned(), vec![]),
                    ];
                    for (pattern, bound) in arms {
                        self.line(&format!("    {pattern} => {{"));
                        self.indent += 1;
                        self.scopes.push(Vec::new());
                        for name in &bound {
                            self.declare(name, Kind::Int, false, false);
                        }
                        self.block(depth);
                        self.scopes.pop();
                        self.indent -= 1;
                        self.line("    }");
                    }
                    self.line("}");
                }
                None => self.note(),
            },
            22 | 23 => {
                let kind = if self.chance(50) {
                    Kind::Text
                } else {
                    Kind::List
                };
                self.hand_over(kind, None);
            }
            24 => match self.take_to_move(Kind::Text) {
                Some(text) => {
                    let name = self.fresh("s");
                    // Moved by a `let`, into a `vec!`, or by a method that takes it by value.
                    let moved = match self.rng.usize(0..4) {
                        0 => format!("vec![{text}].concat()"),
                        1 => format!("String::from_utf8({text}.into_bytes()).unwrap_or_default()"),
                        _ => text,
                    };
                    self.line(&format!("let mut {name} = {moved};"));
                    self.line(&format!("{name}.push('+');"));
                    self.declare(&name, Kind::Text, true, true);
                }
                None => self.note(),
            },
            // A `let` without a value, given one by each branch after what the branch does.
            31 if nested => {
                let name = self.fresh("d");
                let assignable = self.chance(50);
                let declared = match (assignable, self.chance(50)) {
                    (true, _) => format!("let mut {name};"),
                    (false, true) => format!("let {name}: i64;"),
                    (false, false) => format!("let {name};"),
                };
                self.line(&declared);
                if self.chance(50) {
                    let condition = self.condition(true);
                    self.line(&format!("if {condition} {{"));
                    self.assigning_branch(&name, assignable, depth);
                    self.line("} else {");
                    self.assigning_branch(&name, assignable, depth);
                    self.line("}");
                } else {
                    let scrutinee = self.int_or_ask(1);
                    self.line(&format!("match ({scrutinee}).rem_euclid(2) {{"));
                    for arm in ["0", "_"] {
                        self.indent += 1;
                        self.line(&format!("{arm} => {{"));
                        self.assigning_branch(&name, assignable, depth);
                        self.line("}");
                        self.indent -= 1;
                    }
                    self.line("}");
                }
                self.declare(&name, Kind::Int, assignable, assignable);
            }
            // An optional text unwrapped under its own name, asking when it is missing: the
            // old binding, moved by the pattern, is not the one read after.
            33 => {
                let name = self.fresh("o");
                let condition = self.condition(false);
                let value = self.int(1);
                self.line(&format!(
                    "let {name} = if {condition} {{ Some(format!(\"o{{}}\", {value})) }} else {{ None }};"
                ));
                if self.take_ask() {
                    let word = self.word_ask();
                    match self.rng.u8(0..2) {
                        0 => self.line(&format!(
                            "let mut {name} = match {name} {{ Some({name}) => {name}, None => {word} }};"
                        )),
                        _ => self.line(&format!(
                            "let mut {name} = if let Some({name}) = {name} {{ {name} }} else {{ {word} }};"
                        )),
                    }
                } else {
                    self.line(&format!("let mut {name} = {name}.unwrap_or_default();"));
                }
                self.declare(&name, Kind::Text, true, true);
            }
            // In a loop, a text or list of the body around it moved, then an ask, then a
            // `break`: dead at the ask, since no pass and nothing after the loop reads it.
            34 if !self.loops.is_empty() && self.chance(35) => {
                let depth = self.loops.len() - 1;
                match self.pick(|var| {
                    matches!(var.kind, Kind::Text | Kind::List)
                        && var.loop_depth == depth
                        && !var.name.contains('.')
                }) {
                    Some(name) => self.moved_then_leaving(&name),
                    None => self.note(),
                }
            }
            // A text or list moved, then given a new value by an ask, in the statement after
            // or the one after that: dead at the ask, though it may belong to an outer loop (a
            // record's field only where the record was made: moved in a loop around it, it is
            // refused, README, "What does not work yet").
            34 => {
                let depth = self.loops.len();
                let picked = self.pick(|var| {
                    matches!(var.kind, Kind::Text | Kind::List)
                        && var.assignable
                        && (!var.name.contains('.') || var.loop_depth == depth)
                });
                match picked {
                    Some(name) => self.moved_then_given_anew(&name),
                    None => self.note(),
                }
            }
            // A record whose fields the statements after read, change and move one by one,
            // while the others are read after later asks.
            35 => {
                let name = self.fresh("r");
                let (text, a, b, n) = (self.int(1), self.int(0), self.int(1), self.int(1));
                self.line(&format!(
                    "let mut {name} = Record {{ text: format!(\"r{{}}\", {text}), list: vec![{a}, {b}], n: {n} }};"
                ));
                self.declare_record(&name, 0);
            }
            // Records as a loop's items, or as the binding of a `match` arm: their fields
            // are moved in the body that binds them.
            36 if nested => {
                let name = self.fresh("r");
                let count = self.int(1);
                if self.chance(50) {
                    let label = self.fresh("'l");
                    let bound = 2;
                    self.line(&format!(
                        "{label}: for mut {name} in records_of({count}).into_iter().take({bound}) {{"
                    ));
                    self.scopes.push(Vec::new());
                    self.declare_record(&name, 1);
                    self.in_loop(bound, &label, false, depth);
                    self.scopes.pop();
                    self.line("}");
                } else {
                    let scrutinee = format!("records_of({count}).pop()");
                    let declare = |this: &mut Self| this.declare_record(&name, 0);
                    self.match_some(&scrutinee, &format!("mut {name}"), declare, depth);
                }
            }
            // Where the task starts, for a client of the tasks extension: once per body, in
            // a branch or loop as it comes.
            32 if !self.task_start_written => {
                self.task_start_written = true;
                self.line("ask!(begin = mrtr::start_task());");
            }
            21 if !self.loops.is_empty() => {
                let condition = self.condition(true);
                let target = self.rng.usize(..self.loops.len());
                let (label, with_value) = {
                    let target = &self.loops[target];
                    (target.label.clone(), target.breaks_with_value)
                };
                let jump = if self.chance(50) {
                    if with_value {
                        format!("break {label} {}", self.int(1))
                    } else {
                        format!("break {label}")
                    }
                } else {
                    format!("continue {label}")
                };
                self.line(&format!("if {condition} {{ {jump}; }}"));
            }
            12..=18 | 21 if nested => {
                self.line("{");
                self.block(depth);
                self.line("}");
            }
            // A `let` or an arm that only borrows from a held text or list, read after an ask:
            // made again on resume rather than saved. It cannot fail, so what follows may change
            // or move what it borrows from.
            37 | 38 => {
                // Not a record's field: one of its other fields may have been moved before,
                // and then the record is not made again (README).
                let source = self.pick(|var| {
                    matches!(var.kind, Kind::Text | Kind::List)
                        && !var.name.contains('.')
                        && !var.given_anew
                });
                match source {
                    Some(source) if self.take_ask() => {
                        let text = self
                            .visible()
                            .any(|v| v.name == source && v.kind == Kind::Text);
                        // Or an owned copy, changed and then bound again from itself in a
                        // block inside: the old one is saved, the new one made again.
                        if text && self.chance(20) {
                            let owned = self.fresh("r");
                            let condition = self.condition(false);
                            let answer = self.fresh("a");
                            let ask = self.ask();
                            let site = self.site();
                            self.line(&format!("let mut {owned} = {source}.clone();"));
                            self.line(&format!("if {condition} {{"));
                            self.line(&format!("    {owned}.push_str(\" 1\");"));
                            self.line(&format!("    let {owned} = {owned}.trim();"));
                            self.line(&format!("    let {answer} = {ask};"));
                            self.line(&format!(
                                "    note!(args, \"s{site} {{:?}} {{}}\", {owned}, {answer});"
                            ));
                            self.line("}");
                            self.declare(&owned, Kind::Text, true, true);
                            return;
                        }
                        let borrow = self.fresh("r");
                        // Or an owned copy first, then a `let` of its name that borrows from it.
                        let mut copy = None;
                        let value = match (text, self.rng.u8(0..12)) {
                            (_, 10) => {
                                copy = Some(format!("let {borrow} = {source}.clone();"));
                                match text {
                                    true => format!("{borrow}.trim()"),
                                    false => format!("{borrow}.first()"),
                                }
                            }
                            // Chosen among a `let` made again, by name, and a literal.
                            (true, 11) => {
                                let local = self.fresh("r");
                                copy = Some(format!("let {local} = {source}.trim();"));
                                format!("if {local}.is_empty() {{ \"-\" }} else {{ {local} }}")
                            }
                            (true, 0) => format!("{source}.trim()"),
                            (true, 1) => {
                                format!("{source}.split_once('1').unwrap_or((\"\", \"\"))")
                            }
                            (true, 2) => format!("{source}.as_str()"),
                            (true, 3) => format!("{source}.split('1').next()"),
                            // Collected, or found, through picks and reads.
                            (true, 4) => format!(
                                "{source}.split('1').map(str::trim).filter(|w| !w.is_empty()).collect::<Vec<_>>()"
                            ),
                            (true, 5) => format!(
                                "{source}.split('1').map(|w| w.trim_start_matches('0')).find(|w| w.len() > 1)"
                            ),
                            (false, 0) => format!("{source}.first()"),
                            (false, 1) => format!("{source}.get(1)"),
                            (false, 2) => format!("{source}.last()"),
                            (false, 3) => format!("{source}.iter().rev().max()"),
                            (false, 4) => {
                                format!("{source}.iter().filter(|x| **x > 1).collect::<Vec<_>>()")
                            }
                            (false, 5) => format!("{source}.first().filter(|x| **x != 0)"),
                            // Chosen by a test that reads.
                            (true, 6) => format!(
                                "if {source}.len() > 2 {{ {source}.trim() }} else {{ \"short\" }}"
                            ),
                            (false, 6) => format!(
                                "if {source}.len() > 1 {{ {source}.get(1) }} else {{ {source}.first() }}"
                            ),
                            // Built of such values, or picked at a place computed.
                            (true, 7) => format!("({source}.trim(), 1)"),
                            (false, 7) => format!("{source}.get({source}.len() / 2)"),
                            _ => format!("&{source}"),
                        };
                        // Or an arm that binds it, bound again on resume rather than saved; or
                        // one that binds alone a local made again, copied again on resume.
                        let mut made = None;
                        let arm = match (text, self.rng.u8(0..7)) {
                            _ if copy.is_some() => None,
                            (true, 5) => {
                                let local = self.fresh("r");
                                made = Some(format!("let {local} = {source}.trim();"));
                                Some((format!("match {local}"), borrow.clone(), "\"\""))
                            }
                            (false, 5) => {
                                let local = self.fresh("r");
                                made = Some(format!("let {local} = {source}.first();"));
                                Some((format!("match {local}"), borrow.clone(), "None"))
                            }
                            // An arm that takes apart a local made again.
                            (true, 6) => {
                                let local = self.fresh("r");
                                made = Some(format!("let {local} = {source}.split_once('1');"));
                                Some((
                                    format!("match {local}"),
                                    format!("Some(({borrow}, _))"),
                                    "None",
                                ))
                            }
                            (false, 6) => {
                                let local = self.fresh("r");
                                made = Some(format!("let {local} = {source}.iter().rev().max();"));
                                Some((format!("match {local}"), format!("Some({borrow})"), "None"))
                            }
                            (true, 0) => Some((
                                format!("match {source}.split_once('1')"),
                                format!("Some(({borrow}, _))"),
                                "None",
                            )),
                            (true, 1) => {
                                Some((format!("match {source}.as_str()"), borrow.clone(), "\"\""))
                            }
                            (false, 0) => Some((
                                format!("match {source}.last()"),
                                format!("Some({borrow})"),
                                "None",
                            )),
                            _ => None,
                        };
                        let ask = self.ask();
                        let answer = self.fresh("a");
                        let site = self.site();
                        let note =
                            format!("note!(args, \"r{site} {{:?}} {{}}\", {borrow}, {answer});");
                        match arm {
                            Some((matched, pattern, other)) => {
                                if let Some(made) = &made {
                                    self.line(made);
                                }
                                self.line(&format!("{matched} {{"));
                                self.line(&format!("    {other} => {{}}"));
                                self.line(&format!("    {pattern} => {{"));
                                self.line(&format!("        let {answer} = {ask};"));
                                self.line(&format!("        {note}"));
                                self.line("    }");
                                self.line("}");
                            }
                            None => {
                                if let Some(copy) = &copy {
                                    self.line(copy);
                                }
                                self.line(&format!("let {borrow} = {value};"));
                                self.line(&format!("let {answer} = {ask};"));
                                self.line(&note);
                                self.declare(&answer, Kind::Int, false, false);
                            }
                        }
                    }
                    _ => self.note(),
                }
            }
            _ => self.note(),
        }
    }

    /// A branch that gives `name`, declared without a value, its value after its statements,
    /// directly or by a nested `if`, then may read and change it.
    fn assigning_branch(&mut self, name: &str, assignable: bool, depth: usize) {
        self.block(depth);
        self.indent += 1;
        if self.chance(25) {
            let condition = self.condition(true);
            let (first, second) = (self.int_or_ask(1), self.int_or_ask(1));
            self.line(&format!(
                "if {condition} {{ {name} = {first}; }} else {{ {name} = {second}; }}"
            ));
        } else {
            let value = self.int_or_ask(1);
            self.line(&format!("{name} = {value};"));
        }
        if self.chance(40) {
            let site = self.site();
            self.line(&format!("note!(args, \"d{site} {{}}\", {name});"));
        }
        if assignable && self.chance(40) {
            let more = self.int_or_ask(1);
            self.line(&format!("{name} = {name}.wrapping_add({more});"));
        }
        self.indent -= 1;
    }

    /// A text or list handed to a call together with an answer: moved, or borrowed, before
    /// the ask. `preferred` if it may be.
    fn hand_over(&mut self, kind: Kind, preferred: Option<String>) {
        let name = self.fresh("v");
        let depth = self.loops.len();
        let movable = |this: &Self, wanted: &str| {
            this.visible()
                .any(|var| var.name == wanted && var.loop_depth == depth)
        };
        let moved = self.chance(60);
        let taken = match preferred {
            Some(wanted) if !moved || movable(self, &wanted) => {
                if moved {
                    self.mark_moved(&wanted);
                }
                Some(wanted)
            }
            _ if moved => self.take_to_move(kind),
            _ => self.pick_kind(kind),
        };
        let Some(taken) = taken else {
            return self.note();
        };
        // Sometimes the ask sits in a branch of the argument, so that resuming evaluates the
        // text or list again before it.
        let value = if self.chance(30) && self.take_ask() {
            let (test, bound) = (self.int(0), self.rng.i64(-1..=6));
            let ask = self.ask();
            let otherwise = self.int(0);
            format!("if {test} > {bound} {{ {ask} }} else {{ {otherwise} }}")
        } else {
            self.int_or_ask(1)
        };
        let call = match (kind, moved) {
            (Kind::Text, true) => format!("text_with({taken}, {value})"),
            (Kind::Text, false) => format!("text_len_with(&{taken}, {value})"),
            (_, true) => format!("list_with({taken}, {value})"),
            (_, false) => format!("list_len_with(&{taken}, {value})"),
        };
        self.line(&format!("let {name} = {call};"));
        let site = self.site();
        self.line(&format!("note!(args, \"h{site} {{}}\", {name});"));
        self.declare(&name, Kind::Int, false, false);
    }

    fn moved_then_given_anew(&mut self, name: &str) {
        let text = self
            .visible()
            .any(|var| var.name == name && var.kind == Kind::Text);
        let handed = self.fresh("v");
        let call = if text { "text_with" } else { "list_with" };
        // Marked first, so that the argument beside it does not read it.
        self.mark_moved(name);
        let value = self.int(1);
        self.line(&format!("let {handed} = {call}({name}, {value});"));
        self.declare(&handed, Kind::Int, false, false);
        let asks = self.take_ask();
        let fresh = match (text, asks) {
            (true, true) => self.word_ask(),
            (true, false) => format!("format!(\"r{{}}\", {})", self.int(1)),
            (false, true) => format!("::std::iter::once({}).collect()", self.ask()),
            (false, false) => format!("vec![{}]", self.int(1)),
        };
        if asks && self.chance(50) {
            // The ask in a `let` of its own, the binding given its value by the next statement.
            let answer = self.fresh("a");
            let fresh = fresh.replace(".collect()", ".collect::<Vec<i64>>()");
            self.line(&format!("let {answer} = {fresh};"));
            if self.chance(50) {
                self.note();
            }
            if self.chance(30) {
                // Each branch gives it a value, one of them not the answer.
                let condition = self.condition(false);
                let other = if text {
                    format!("format!(\"e{{}}\", {})", self.int(1))
                } else {
                    format!("vec![{}]", self.int(1))
                };
                self.line(&format!(
                    "if {condition} {{ {name} = {answer}; }} else {{ {name} = {other}; }}"
                ));
            } else {
                self.line(&format!("{name} = {answer};"));
            }
        } else {
            self.line(&format!("{name} = {fresh};"));
        }
        self.set_moved(name, false);
        for scope in self.scopes.iter_mut().rev() {
            if let Some(var) = scope.iter_mut().rev().find(|var| var.name == name) {
                var.given_anew = true;
                break;
            }
        }
    }

    /// `if c { let v = text_with(name, ..); let a = ask; note; break 'label ..; }`: `name`,
    /// declared around the innermost loop, is moved, and nothing reads it after the ask.
    fn moved_then_leaving(&mut self, name: &str) {
        let text = self
            .visible()
            .any(|var| var.name == name && var.kind == Kind::Text);
        let call = if text { "text_with" } else { "list_with" };
        let condition = self.condition(false);
        let (label, with_value) = self
            .loops
            .last()
            .map(|target| (target.label.clone(), target.breaks_with_value))
            .expect("in a loop");
        self.mark_moved(name);
        let handed = self.fresh("v");
        let value = self.int(1);
        self.line(&format!("if {condition} {{"));
        self.indent += 1;
        self.line(&format!("let {handed} = {call}({name}, {value});"));
        let answer = self.fresh("a");
        let asked = if self.take_ask() {
            self.ask()
        } else {
            self.int(1)
        };
        self.line(&format!("let {answer} = {asked};"));
        let site = self.site();
        self.line(&format!(
            "note!(args, \"m{site} {{}} {{}}\", {handed}, {answer});"
        ));
        if with_value {
            self.line(&format!("break {label} {answer}.wrapping_add({handed});"));
        } else {
            self.line(&format!("break {label};"));
        }
        self.indent -= 1;
        self.line("}");
    }

    fn note(&mut self) {
        let site = self.site();
        let shown: Vec<String> = (0..self.rng.usize(1..=3))
            .filter_map(|_| self.pick(|var| var.kind != Kind::Func))
            .collect();
        let holes = vec!["{:?}"; shown.len()].join(" ");
        let args: String = shown.iter().map(|name| format!(", {name}")).collect();
        self.line(&format!("note!(args, \"n{site} {holes}\"{args});"));
    }
}
