//! Stage 2: find the ask points, number them in source order, and check that each stands where
//! the function can resume, once `bound_first` has bound what runs before an ask in its
//! statement. Each `ask!(..)` is replaced by a marker path for `lower`.

use std::collections::BTreeSet;

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::{
    Block, Expr, LitStr, Pat, Stmt,
    spanned::Spanned,
    visit_mut::{self, VisitMut},
};

use super::ask_args::AskArgs;
use super::syntax::{
    ask_marker_id, asks_in_expr, assigned_place, has_effect, head_ask, is_ask_macro, macro_items,
    make_ask_marker, make_task_start_marker, operands_in_order, tokens_mention_ask,
};
use crate::diagnostics::Diagnostics;

/// One `ask!` in the source.
pub(crate) struct AskSite {
    pub(crate) id: u32,
    /// The keys in `inputRequests`: as written in `ask!(key = ..)`; for a single question
    /// without one, the name of the `let` the ask initializes, else `ask_N`.
    pub(crate) keys: Vec<LitStr>,
    /// `ask!(a = .., b = ..)`: the questions form a tuple and so do the answers.
    pub(crate) several: bool,
    /// Whether the key was written out.
    pub(crate) explicit_key: bool,
    /// The path the user wrote (`ask` or `mrtr::ask`), reused for the lowered call.
    pub(crate) path: syn::Path,
    pub(crate) span: Span,
}

/// `ask!(start_task())`: where a task tool's task begins. No ask point: nothing halts or is
/// saved there.
pub(crate) struct TaskStart {
    /// The path the user wrote (`ask` or `mrtr::ask`), reused for the lowered call.
    pub(crate) path: syn::Path,
    pub(crate) span: Span,
}

/// The body with ask points replaced by markers, and the ask points themselves.
pub(crate) struct Analysis {
    pub(crate) body: Block,
    pub(crate) asks: Vec<AskSite>,
    pub(crate) task_starts: Vec<TaskStart>,
}

pub(crate) fn analyze(body: &Block, diagnostics: &mut Diagnostics) -> Analysis {
    let mut body = body.clone();
    super::format_asks::unfold(&mut body);
    let mut numbering = Numbering {
        asks: Vec::new(),
        task_starts: Vec::new(),
        diagnostics,
        context: Vec::new(),
        questions_in_locals: BTreeSet::new(),
        bound_before: BTreeSet::new(),
    };
    numbering.visit_block_mut(&mut body);
    let (mut asks, task_starts) = (numbering.asks, numbering.task_starts);
    name_keys_after_lets(&body, &mut asks);
    super::bound_first::bind_operands_first(&mut body);
    check_block_order(&body, diagnostics);
    Analysis {
        body,
        asks,
        task_starts,
    }
}

/// A question is built only when it is sent, inside a closure, after the bindings alive at the
/// ask were saved; and again each time it is asked again. So it may not wait, return early, or
/// change a local.
fn check_question(question: &Expr, diagnostics: &mut Diagnostics) {
    struct Check<'d> {
        diagnostics: &'d mut Diagnostics,
    }
    impl<'ast> syn::visit::Visit<'ast> for Check<'_> {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            let message = match expr {
                Expr::Closure(_) | Expr::Async(_) => return,
                Expr::Await(_) => Some(
                    "the question of an `ask!` cannot `.await`: it is built only when it is sent. \
                     Compute the value first: `let value = fetch().await;`, then \
                     `ask!(key = elicit::<Form>(format!(\"..{value}..\")))`",
                ),
                Expr::Try(_) => Some(
                    "the question of an `ask!` cannot use `?`: it is built only when it is sent. \
                     Compute the value first: `let value = parse(text)?;`, then ask with `value`",
                ),
                _ if assigned_place(expr).is_some() => Some(MUTATES),
                _ => None,
            };
            match message {
                Some(message) => self.diagnostics.error(expr, message),
                None => syn::visit::visit_expr(self, expr),
            }
        }

        /// `format!(..)` and the like: look inside the arguments too. An `ask!` inside is
        /// reported on its own.
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            if is_ask_macro(&mac.path) {
                return;
            }
            if let Some(args) = macro_items(mac) {
                args.iter().for_each(|arg| self.visit_expr(arg));
            }
        }
    }
    const MUTATES: &str = "the question of an `ask!` must not change a local: it is built after \
        the locals were saved, and again if the question is asked again, so the change would be \
        lost or repeated. Change the local before the `ask!`";
    syn::visit::Visit::visit_expr(&mut Check { diagnostics }, question);
}

/// `let name = ask!(..)...;` with no key: the key is `name`, also when a pattern binds that one
/// name (`let Some(name) = ask!(..).ok() else { .. }`).
fn name_keys_after_lets(body: &Block, asks: &mut [AskSite]) {
    struct Lets<'a> {
        asks: &'a mut [AskSite],
    }
    impl<'ast> syn::visit::Visit<'ast> for Lets<'_> {
        fn visit_local(&mut self, local: &'ast syn::Local) {
            let bindings = super::syntax::pattern_bindings(&local.pat);
            let ident = match bindings.as_slice() {
                [only] => Some(&only.ident),
                _ => None,
            };
            if let (Some(ident), Some(init)) = (ident, &local.init)
                && let Some(id) = head_ask(&init.expr)
                && let Some(site) = self
                    .asks
                    .iter_mut()
                    .find(|site| site.id == id && !site.explicit_key && !site.several)
            {
                site.keys = vec![LitStr::new(&ident.unraw().to_string(), ident.span())];
            }
            syn::visit::visit_local(self, local);
        }
    }
    syn::visit::Visit::visit_block(&mut Lets { asks }, body);
}

/// Whether `question` is `start_task()` (or a path ending in it, `mrtr::start_task()`).
fn is_start_task(question: &Expr) -> bool {
    let Expr::Call(call) = question else {
        return false;
    };
    let Expr::Path(path) = &*call.func else {
        return false;
    };
    call.args.is_empty()
        && path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "start_task")
}

/// Checks what the parser does not: at least one question, and distinct keys for several.
fn checked(args: AskArgs) -> syn::Result<Vec<(Option<LitStr>, Expr)>> {
    let mut mistakes = args.mistakes.into_iter();
    if let Some(mut first) = mistakes.next() {
        mistakes.for_each(|more| first.combine(more));
        return Err(first);
    }
    let questions: Vec<(Option<LitStr>, Expr)> = args
        .questions
        .into_iter()
        .map(|(key, question)| (key.map(|key| key.text()), question))
        .collect();
    if questions.len() > 1 {
        let mut seen: Vec<String> = Vec::new();
        for (key, question) in &questions {
            let Some(key) = key else {
                return Err(syn::Error::new_spanned(
                    question,
                    "name each question when asking several in one round: \
                     `ask!(name = elicit::<Name>(..), where_ = roots())`",
                ));
            };
            if seen.contains(&key.value()) {
                return Err(syn::Error::new_spanned(
                    key,
                    format!(
                        "the key `{}` is used twice in this `ask!`: keys name the answers of \
                         one round and must differ",
                        key.value()
                    ),
                ));
            }
            seen.push(key.value());
        }
    }
    Ok(questions)
}

/// Where an ask would be, if it is somewhere it cannot resume.
enum Context {
    Closure,
    AsyncBlock,
    NestedItem,
    InQuestion,
    Guard,
}

struct Numbering<'d> {
    asks: Vec<AskSite>,
    task_starts: Vec<TaskStart>,
    diagnostics: &'d mut Diagnostics,
    context: Vec<Context>,
    /// Locals whose value is a question built by one of mrtr's constructors.
    questions_in_locals: BTreeSet<String>,
    /// The names the patterns walked so far bind (a `let`'s own, once its value is walked).
    bound_before: BTreeSet<String>,
}

/// The name of a `let` that holds a question (`let q = elicit::<T>(..);`).
pub(crate) fn question_local(local: &syn::Local) -> Option<&syn::Ident> {
    match (&local.pat, &local.init) {
        (Pat::Ident(binding), Some(init)) if builds_question(&init.expr) => Some(&binding.ident),
        _ => None,
    }
}

/// Whether `expr` builds a question: `elicit::<T>(..)`, `sample(..).max_tokens(..)`,
/// `Sample::messages(..)`, `roots()` and the like.
fn builds_question(expr: &Expr) -> bool {
    const CONSTRUCTORS: &[&str] = &["elicit", "elicit_url", "sample", "roots", "checkpoint"];
    match expr {
        Expr::MethodCall(call) => builds_question(&call.receiver),
        Expr::Paren(e) => builds_question(&e.expr),
        Expr::Call(call) => match &*call.func {
            Expr::Path(path) => {
                let segments: Vec<String> = path
                    .path
                    .segments
                    .iter()
                    .map(|segment| segment.ident.to_string())
                    .collect();
                match segments.as_slice() {
                    [.., last] if CONSTRUCTORS.contains(&last.as_str()) => true,
                    [.., ty, last] => ty == "Sample" && last == "messages",
                    _ => false,
                }
            }
            _ => false,
        },
        _ => false,
    }
}

impl Numbering<'_> {
    fn within(&mut self, context: Context, visit: impl FnOnce(&mut Self)) {
        self.context.push(context);
        visit(self);
        self.context.pop();
    }

    fn take_ask(&mut self, mac: &syn::Macro) -> Option<Expr> {
        let span = mac
            .path
            .span()
            .join(mac.delimiter.span().close())
            .unwrap_or_else(|| mac.path.span());
        let marks_task_start = mac.tokens.clone().into_iter().any(
            |token| matches!(token, proc_macro2::TokenTree::Ident(ident) if ident == "start_task"),
        );
        if let Some(context) = self.context.last() {
            let message = match context {
                _ if marks_task_start => "`ask!(start_task())` marks where the task begins in \
                    the tool's own body: move it out of this closure, async block, nested fn, \
                    guard or question, into the body"
                    .to_owned(),
                Context::Closure => {
                    "`ask!` cannot be used inside a closure: a closure may run later \
                    or many times, so there is no point to resume at. Ask before the closure and \
                    move the answer in: `let answer = ask!(..); move || use(answer)`"
                        .to_owned()
                }
                Context::AsyncBlock => {
                    "`ask!` cannot be used inside an `async` block: the block is \
                    a separate future the tool cannot resume. Ask in the tool's body and move the \
                    answer into the block"
                        .to_owned()
                }
                Context::NestedItem => {
                    "`ask!` cannot be used inside a nested fn or item: only the \
                    `#[mrtr_tool]` function itself can resume. Ask in the tool's body and pass the \
                    answer as an argument"
                        .to_owned()
                }
                Context::Guard => "an `ask!` in a match guard cannot be resumed: the guard is \
                    tried again for each arm. Ask before the `match` and use the answer in the guard"
                    .to_owned(),
                Context::InQuestion => "`ask!` inside the question of another `ask!` has no \
                    round of its own: ask first, in its own statement, and build the second \
                    question from that answer"
                    .to_owned(),
            };
            self.diagnostics.error_at(span, message);
            return None;
        }
        if mac.tokens.is_empty() {
            self.diagnostics.error_at(
                mac.delimiter.span().join(),
                "`ask!` needs a question: `ask!(key = elicit::<Form>(\"message\"))`",
            );
            return None;
        }
        let questions = match mac.parse_body::<AskArgs>().and_then(checked) {
            Ok(questions) => questions,
            Err(error) => {
                self.diagnostics.push(error);
                return None;
            }
        };
        for (_, question) in &questions {
            check_question(question, self.diagnostics);
            let Expr::Path(path) = question else { continue };
            let Some(name) = path.path.get_ident().map(ToString::to_string) else {
                continue;
            };
            if !self.bound_before.contains(&name)
                && name.starts_with(|c: char| c.is_lowercase() || c == '_')
            {
                self.diagnostics.error(
                    question,
                    format!(
                        "`ask!({name})` has no question: write it after the key, \
                         `ask!({name} = elicit::<YourForm>(\"..\"))`"
                    ),
                );
            } else if self.questions_in_locals.contains(&name) {
                self.diagnostics.error(
                    question,
                    format!(
                        "`{name}` holds a question built before its `ask!`: a question is built \
                         when it is sent and cannot be held across the ask. Write it inside the \
                         ask, `ask!(key = elicit::<T>(..))`, or build it in a function called \
                         there, `ask!(key = make_question(..))`"
                    ),
                );
            }
        }
        let starts_task = questions
            .iter()
            .any(|(_, question)| is_start_task(question));
        if starts_task && questions.len() > 1 {
            self.diagnostics.error_at(
                span,
                "`start_task()` marks where the task begins and asks nothing: give it an \
                 `ask!` of its own, `ask!(start_task());`, after the questions that come before \
                 the task",
            );
            return None;
        }
        if starts_task {
            self.task_starts.push(TaskStart {
                path: mac.path.clone(),
                span,
            });
            let (_, question) = questions.into_iter().next()?;
            return Some(make_task_start_marker(question, span));
        }
        let id = self.asks.len() as u32 + 1;
        let explicit_key = questions[0].0.is_some();
        let several = questions.len() > 1;
        let (keys, mut questions): (Vec<LitStr>, Vec<Expr>) = questions
            .into_iter()
            .map(|(key, question)| {
                (
                    key.unwrap_or_else(|| LitStr::new(&format!("ask_{id}"), span)),
                    question,
                )
            })
            .unzip();
        // An ask inside the question of another ask has no round of its own.
        self.within(Context::InQuestion, |this| {
            questions.iter_mut().for_each(|q| this.visit_expr_mut(q))
        });
        let question: Expr = if several {
            syn::parse_quote!((#(#questions),*))
        } else {
            questions.remove(0)
        };
        self.asks.push(AskSite {
            id,
            keys,
            several,
            explicit_key,
            path: mac.path.clone(),
            span,
        });
        Some(make_ask_marker(
            id,
            question,
            span,
            mac.delimiter.span().join(),
        ))
    }
}

impl VisitMut for Numbering<'_> {
    fn visit_stmt_mut(&mut self, stmt: &mut Stmt) {
        if let Stmt::Macro(mac) = stmt
            && is_ask_macro(&mac.mac.path)
        {
            let expr = Expr::Macro(syn::ExprMacro {
                attrs: Vec::new(),
                mac: mac.mac.clone(),
            });
            *stmt = if mac.attrs.is_empty() {
                Stmt::Expr(expr, mac.semi_token)
            } else {
                // The ask becomes a marker, which has no place for attributes: a block around
                // it keeps them (`#[cfg(..)] ask!(..);`).
                Stmt::Expr(
                    Expr::Block(syn::ExprBlock {
                        attrs: mac.attrs.clone(),
                        label: None,
                        block: syn::Block {
                            brace_token: Default::default(),
                            stmts: vec![Stmt::Expr(expr, mac.semi_token)],
                        },
                    }),
                    None,
                )
            };
        }
        visit_mut::visit_stmt_mut(self, stmt);
    }

    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        match expr {
            Expr::Macro(mac) if is_ask_macro(&mac.mac.path) => {
                if let Some(marker) = self.take_ask(&mac.mac) {
                    *expr = marker;
                }
            }
            Expr::Match(e) => {
                self.visit_expr_mut(&mut e.expr);
                for arm in &mut e.arms {
                    if let Some((_, guard)) = &mut arm.guard {
                        self.within(Context::Guard, |this| this.visit_expr_mut(guard));
                    }
                    self.visit_expr_mut(&mut arm.body);
                }
            }
            Expr::Closure(closure) => self.within(Context::Closure, |this| {
                this.visit_expr_mut(&mut closure.body)
            }),
            Expr::Async(block) => self.within(Context::AsyncBlock, |this| {
                this.visit_block_mut(&mut block.block)
            }),
            Expr::Macro(mac) => {
                if let Some(span) = tokens_mention_ask(&mac.mac.tokens) {
                    self.diagnostics
                        .error_at(span, other_macro_message(&mac.mac));
                }
            }
            _ => visit_mut::visit_expr_mut(self, expr),
        }
    }

    fn visit_stmt_macro_mut(&mut self, mac: &mut syn::StmtMacro) {
        if let Some(span) = tokens_mention_ask(&mac.mac.tokens) {
            self.diagnostics
                .error_at(span, other_macro_message(&mac.mac));
        }
    }

    fn visit_local_mut(&mut self, local: &mut syn::Local) {
        // The value first: the `let`'s own names are not bound in it.
        if let Some(init) = &mut local.init {
            self.visit_expr_mut(&mut init.expr);
            if let Some((_, diverge)) = &mut init.diverge {
                self.visit_expr_mut(diverge);
            }
        }
        self.visit_pat_mut(&mut local.pat);
        if let Pat::Ident(binding) = &local.pat {
            let name = binding.ident.to_string();
            if question_local(local).is_some() {
                self.questions_in_locals.insert(name);
            } else {
                self.questions_in_locals.remove(&name);
            }
        }
    }

    fn visit_pat_ident_mut(&mut self, pat: &mut syn::PatIdent) {
        self.bound_before.insert(pat.ident.to_string());
        visit_mut::visit_pat_ident_mut(self, pat);
    }

    fn visit_item_mut(&mut self, item: &mut syn::Item) {
        self.within(Context::NestedItem, |this| {
            visit_mut::visit_item_mut(this, item)
        });
    }
}

fn other_macro_message(mac: &syn::Macro) -> String {
    let name = mac
        .path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    format!(
        "`ask!` inside `{name}!(..)` is invisible to `#[mrtr_tool]`: another macro's arguments are \
         opaque to it (but for `format!`, `print!`, `println!`, `eprint!`, `eprintln!`, `write!`, \
         `writeln!` and `vec![a, b]`). Bind the answer first with `let answer = ask!(..);` and pass `answer` \
         to `{name}!`"
    )
}

/// Checks that within each statement an ask is evaluated before anything with an effect, so
/// that resuming into the statement repeats nothing, and that a statement asks at most once.
fn check_block_order(block: &Block, diagnostics: &mut Diagnostics) {
    for stmt in &block.stmts {
        let mut order = Order::default();
        match stmt {
            Stmt::Local(local) => {
                if let Some(init) = &local.init {
                    order.expr(&init.expr, diagnostics);
                    // The `else` of a `let .. else` becomes an arm of a `match` on the value
                    // (`desugar`), entered on resume without making the value again.
                    if let Some((_, diverge)) = &init.diverge {
                        Order::default().expr(diverge, diagnostics);
                    }
                }
            }
            Stmt::Expr(expr, _) => order.expr(expr, diagnostics),
            Stmt::Item(_) | Stmt::Macro(_) => {}
        }
    }
}

#[derive(Default)]
struct Order {
    /// Something with an effect was evaluated before this point of the statement.
    effect: bool,
    /// An ask was already evaluated in this statement.
    asked: bool,
}

impl Order {
    /// Before entering control flow that holds an ask: nothing with an effect may precede it.
    fn nested_entry(&mut self, expr: &Expr, diagnostics: &mut Diagnostics) {
        if self.effect && !asks_in_expr(expr).is_empty() {
            diagnostics.error(
                expr,
                "this holds an `ask!`, but code of its statement that `#[mrtr_tool]` cannot \
                 compute first on its own, as it does an argument, runs before it (a method's \
                 receiver, a place), and would run again when the call resumes. Make it its own \
                 statement, or bind what comes first with `let`",
            );
        }
    }

    fn done_with(&mut self, expr: &Expr) {
        self.asked |= !asks_in_expr(expr).is_empty();
        self.effect = true;
    }

    fn block(&mut self, block: &Block, diagnostics: &mut Diagnostics) {
        check_block_order(block, diagnostics);
        self.asked |= block
            .stmts
            .iter()
            .any(|s| !super::syntax::asks_in_stmt(s).is_empty());
        self.effect = true;
    }

    fn expr(&mut self, expr: &Expr, diagnostics: &mut Diagnostics) {
        if ask_marker_id(expr).is_some() {
            if self.asked {
                diagnostics.error(
                    expr,
                    "one `ask!` per statement: each ask is its own round, and the earlier answer \
                     would be lost. Bind each answer with its own `let answer = ask!(..);`",
                );
            } else if self.effect {
                diagnostics.error(
                    expr,
                    "this `ask!` runs after code of its statement that `#[mrtr_tool]` cannot \
                     compute first on its own, as it does an argument: a method's receiver \
                     (`make().push(ask!(..))`), a place (`v[i()]`), a `let` of a chain, a \
                     loop's condition, or code that may change a local that an earlier part \
                     reads (`f(n, bump(&mut n), ask!(..))`). That code would run again when \
                     the call resumes. Ask first, in its own statement: \
                     `let answer = ask!(..);`, then use `answer`",
                );
            }
            self.asked = true;
            self.effect = true;
            return;
        }
        match expr {
            // Control flow is entered on the way to an ask point inside it, so nothing with an
            // effect may come before it in the statement.
            Expr::If(e) => {
                self.nested_entry(expr, diagnostics);
                self.expr(&e.cond, diagnostics);
                check_block_order(&e.then_branch, diagnostics);
                if let Some((_, else_branch)) = &e.else_branch {
                    Order::default().expr(else_branch, diagnostics);
                }
                self.done_with(expr);
            }
            Expr::Match(e) => {
                self.nested_entry(expr, diagnostics);
                self.expr(&e.expr, diagnostics);
                for arm in &e.arms {
                    Order::default().expr(&arm.body, diagnostics);
                }
                self.done_with(expr);
            }
            Expr::Loop(e) => {
                self.nested_entry(expr, diagnostics);
                check_block_order(&e.body, diagnostics);
                self.done_with(expr);
            }
            Expr::While(e) => {
                self.nested_entry(expr, diagnostics);
                Order::default().expr(&e.cond, diagnostics);
                check_block_order(&e.body, diagnostics);
                self.done_with(expr);
            }
            Expr::ForLoop(e) => {
                self.nested_entry(expr, diagnostics);
                self.expr(&e.expr, diagnostics);
                check_block_order(&e.body, diagnostics);
                self.done_with(expr);
            }
            // A block in statement position is resumed statement by statement.
            Expr::Block(e) if !self.effect => self.block(&e.block, diagnostics),
            Expr::Unsafe(e) if !self.effect => self.block(&e.block, diagnostics),
            other => match operands_in_order(other) {
                Some(operands) => {
                    operands
                        .into_iter()
                        .for_each(|operand| self.expr(operand, diagnostics));
                    self.effect |= has_effect(other);
                }
                None => {
                    if !asks_in_expr(other).is_empty() {
                        diagnostics.error(
                            other,
                            "this `ask!` is nested where the call cannot resume into it. Ask \
                             first, in its own statement: `let answer = ask!(..);`, then use \
                             `answer` here",
                        );
                    }
                    self.effect = true;
                }
            },
        }
    }
}
