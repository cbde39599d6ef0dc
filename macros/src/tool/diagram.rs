//! A Mermaid flowchart of a tool's ask points and the control flow between them, drawn from
//! the analyzed body. Statements without ask points are left out, but for a `return`, `break`
//! or `continue` that leaves them and the `if` or `match` around it. A `?` is not drawn.

use std::fmt::Write;

use quote::ToTokens;
use syn::{Block, Expr, LitStr, Pat, Stmt};

use super::{
    analyze::AskSite,
    syntax::{
        ask_marker_id, asks_in_expr, asks_in_stmt, starts_task_in_expr, starts_task_in_stmt,
        task_start_marker,
    },
};

/// `flowchart TD` text for a tool named `name`.
pub(crate) fn flowchart(name: &str, body: &Block, asks: &[AskSite]) -> String {
    let mut chart = Chart {
        lines: Vec::new(),
        next: 0,
        asks,
        targets: Vec::new(),
        returns: Vec::new(),
    };
    let start = chart.node(&format!("([{}])", quoted(name)));
    let exits = chart.block(body, vec![(start, None)]);
    let end = chart.node("([done])");
    chart.connect(&exits, end);
    let returns = std::mem::take(&mut chart.returns);
    chart.connect(&returns, end);
    let mut text = String::from("flowchart TD\n");
    for line in chart.lines {
        let _ = writeln!(text, "    {line}");
    }
    text
}

type Exits = Vec<(usize, Option<String>)>;

struct Chart<'a> {
    lines: Vec<String>,
    next: usize,
    asks: &'a [AskSite],
    /// The loops and labeled blocks the walk is in, innermost last.
    targets: Vec<Target>,
    /// The edges of the `return`s drawn so far: they go to the end.
    returns: Exits,
}

/// How a loop ends besides its `break`s.
#[derive(Clone, Copy)]
enum Ends<'a> {
    /// `loop`: by them only.
    ByBreak,
    /// `while`: when its condition fails.
    When(&'a Expr),
    /// `for`: when its items run out.
    WhenDone,
}

/// What a `break` or `continue` may leave.
struct Target {
    label: Option<String>,
    /// The loop's head, where a `continue` goes; `None` for a labeled block.
    head: Option<usize>,
    /// The edges of the `break`s out of it: they go where it ends.
    breaks: Exits,
}

impl Chart<'_> {
    fn node(&mut self, shape: &str) -> usize {
        let id = self.next;
        self.next += 1;
        self.lines.push(format!("n{id}{shape}"));
        id
    }

    fn connect(&mut self, from: &Exits, to: usize) {
        for (node, label) in from {
            match label {
                Some(label) => self
                    .lines
                    .push(format!("n{node} -->|{}| n{to}", quoted(label))),
                None => self.lines.push(format!("n{node} --> n{to}")),
            }
        }
    }

    fn block(&mut self, block: &Block, mut exits: Exits) -> Exits {
        for stmt in &block.stmts {
            if asks_in_stmt(stmt).is_empty() && !starts_task_in_stmt(stmt) && !escapes_stmt(stmt) {
                continue;
            }
            exits = match stmt {
                Stmt::Local(local) => match &local.init {
                    Some(init) => {
                        let exits = self.expr(&init.expr, exits);
                        match &init.diverge {
                            Some((_, diverge))
                                if escapes_expr(diverge) || !asks_in_expr(diverge).is_empty() =>
                            {
                                let decision = self.node(&format!(
                                    "{{{}}}",
                                    quoted(&format!("let {} else", source_pat(&local.pat)))
                                ));
                                self.connect(&exits, decision);
                                // The `else` diverges: nothing of it goes on.
                                self.expr(diverge, vec![(decision, Some("else".into()))]);
                                vec![(decision, None)]
                            }
                            _ => exits,
                        }
                    }
                    None => exits,
                },
                Stmt::Expr(expr, _) => self.expr(expr, exits),
                Stmt::Item(_) | Stmt::Macro(_) => exits,
            };
        }
        exits
    }

    /// Walks an expression in evaluation order, drawing the asks and the control flow in it.
    fn expr(&mut self, expr: &Expr, exits: Exits) -> Exits {
        if task_start_marker(expr).is_some() {
            let node = self.node(&format!("[/{}/]", quoted("the task starts")));
            self.connect(&exits, node);
            return vec![(node, None)];
        }
        if let Some(id) = ask_marker_id(expr) {
            let key = self
                .asks
                .iter()
                .find(|site| site.id == id)
                .map(|site| {
                    let keys: Vec<String> = site.keys.iter().map(LitStr::value).collect();
                    format!("ask {}", keys.join(", "))
                })
                .unwrap_or_default();
            let node = self.node(&format!("[/{}/]", quoted(&key)));
            self.connect(&exits, node);
            return vec![(node, None)];
        }
        match expr {
            Expr::If(e) => {
                let exits = self.expr(&e.cond, exits);
                let decision = self.node(&format!(
                    "{{{}}}",
                    quoted(&format!("if {}", source(&*e.cond)))
                ));
                self.connect(&exits, decision);
                let mut out = self.block(&e.then_branch, vec![(decision, Some("yes".into()))]);
                match &e.else_branch {
                    Some((_, else_branch)) => {
                        out.extend(self.expr(else_branch, vec![(decision, Some("no".into()))]))
                    }
                    None => out.push((decision, Some("no".into()))),
                }
                out
            }
            Expr::Match(e) => {
                let exits = self.expr(&e.expr, exits);
                let decision = self.node(&format!(
                    "{{{}}}",
                    quoted(&format!("match {}", source(&*e.expr)))
                ));
                self.connect(&exits, decision);
                let mut out = Vec::new();
                for arm in &e.arms {
                    let label = Some(source(&arm.pat));
                    out.extend(self.expr(&arm.body, vec![(decision, label)]));
                }
                out
            }
            Expr::Loop(e) => {
                self.looping("loop", label_of(&e.label), Ends::ByBreak, &e.body, exits)
            }
            Expr::While(e) => {
                let head = format!("while {}", source(&*e.cond));
                self.looping(
                    &head,
                    label_of(&e.label),
                    Ends::When(&e.cond),
                    &e.body,
                    exits,
                )
            }
            Expr::ForLoop(e) => {
                let exits = self.expr(&e.expr, exits);
                let head = format!("for {} in {}", source_pat(&e.pat), source(&*e.expr));
                self.looping(&head, label_of(&e.label), Ends::WhenDone, &e.body, exits)
            }
            Expr::Block(e) if e.label.is_some() => {
                self.targets.push(Target {
                    label: label_of(&e.label),
                    head: None,
                    breaks: Vec::new(),
                });
                let mut out = self.block(&e.block, exits);
                out.extend(self.targets.pop().map(|t| t.breaks).unwrap_or_default());
                out
            }
            Expr::Block(e) => self.block(&e.block, exits),
            Expr::Unsafe(e) => self.block(&e.block, exits),
            Expr::Return(e) => {
                let exits = match &e.expr {
                    Some(value) => self.expr(value, exits),
                    None => exits,
                };
                self.returns.extend(exits);
                Vec::new()
            }
            Expr::Break(e) => {
                let exits = match &e.expr {
                    Some(value) => self.expr(value, exits),
                    None => exits,
                };
                let label = e.label.as_ref().map(|l| l.ident.to_string());
                match self.target(label.as_deref(), false) {
                    Some(target) => {
                        target.breaks.extend(exits);
                        Vec::new()
                    }
                    None => exits,
                }
            }
            Expr::Continue(e) => {
                let label = e.label.as_ref().map(|l| l.ident.to_string());
                match self.target(label.as_deref(), true).and_then(|t| t.head) {
                    Some(head) => {
                        self.connect(&exits, head);
                        Vec::new()
                    }
                    None => exits,
                }
            }
            other
                if asks_in_expr(other).is_empty()
                    && !starts_task_in_expr(other)
                    && !escapes_expr(other) =>
            {
                exits
            }
            other => {
                // An ask at the head of a method chain, `?`, assignment and the like.
                let mut exits = exits;
                for inner in super::syntax::operands_in_order(other).unwrap_or_default() {
                    exits = self.expr(inner, exits);
                }
                exits
            }
        }
    }

    fn looping(
        &mut self,
        head: &str,
        label: Option<String>,
        ends: Ends<'_>,
        body: &Block,
        exits: Exits,
    ) -> Exits {
        let node = self.node(&format!("{{{{{}}}}}", quoted(head)));
        self.connect(&exits, node);
        let mut entry = vec![(node, Some("next".to_owned()))];
        if let Ends::When(cond) = ends {
            entry = self.expr(cond, entry);
        }
        self.targets.push(Target {
            label,
            head: Some(node),
            breaks: Vec::new(),
        });
        let back = self.block(body, entry);
        self.connect(&back, node);
        let breaks = self.targets.pop().map(|t| t.breaks).unwrap_or_default();
        // A `loop` ends only by its `break`s, when the walk found them.
        let mut out = match (ends, breaks.is_empty()) {
            (Ends::ByBreak, false) => Vec::new(),
            _ => vec![(node, Some("done".into()))],
        };
        out.extend(breaks);
        out
    }

    /// The loop (or, for a `break`, labeled block) that a `break` or `continue` leaves.
    fn target(&mut self, label: Option<&str>, continues: bool) -> Option<&mut Target> {
        self.targets.iter_mut().rev().find(|target| match label {
            Some(label) => target.label.as_deref() == Some(label),
            None => target.head.is_some(),
        } && (!continues || target.head.is_some()))
    }
}

fn label_of(label: &Option<syn::Label>) -> Option<String> {
    label.as_ref().map(|label| label.name.ident.to_string())
}

/// Whether a `return`, or a `break` or `continue` to a loop outside it, can leave `stmt`.
fn escapes_stmt(stmt: &Stmt) -> bool {
    let mut walk = Escapes::default();
    syn::visit::Visit::visit_stmt(&mut walk, stmt);
    walk.found
}

fn escapes_expr(expr: &Expr) -> bool {
    let mut walk = Escapes::default();
    syn::visit::Visit::visit_expr(&mut walk, expr);
    walk.found
}

#[derive(Default)]
struct Escapes {
    /// The unlabeled loops the walk is in.
    loops: usize,
    /// The labels of the loops and blocks the walk is in.
    labels: Vec<String>,
    found: bool,
}

impl Escapes {
    fn inside(&mut self, label: &Option<syn::Label>, is_loop: bool, visit: impl FnOnce(&mut Self)) {
        let label = label_of(label);
        self.loops += usize::from(is_loop);
        self.labels.extend(label.clone());
        visit(self);
        self.loops -= usize::from(is_loop);
        if label.is_some() {
            self.labels.pop();
        }
    }

    fn leaves(&self, label: &Option<syn::Lifetime>) -> bool {
        match label {
            Some(label) => !self.labels.contains(&label.ident.to_string()),
            None => self.loops == 0,
        }
    }
}

impl<'ast> syn::visit::Visit<'ast> for Escapes {
    fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
        self.found = true;
    }
    fn visit_expr_break(&mut self, e: &'ast syn::ExprBreak) {
        self.found |= self.leaves(&e.label);
        syn::visit::visit_expr_break(self, e);
    }
    fn visit_expr_continue(&mut self, e: &'ast syn::ExprContinue) {
        self.found |= self.leaves(&e.label);
    }
    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        self.inside(&e.label, true, |walk| syn::visit::visit_expr_loop(walk, e));
    }
    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.inside(&e.label, true, |walk| syn::visit::visit_expr_while(walk, e));
    }
    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.inside(&e.label, true, |walk| {
            syn::visit::visit_expr_for_loop(walk, e)
        });
    }
    fn visit_expr_block(&mut self, e: &'ast syn::ExprBlock) {
        self.inside(&e.label, false, |walk| {
            syn::visit::visit_expr_block(walk, e)
        });
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

fn source(tokens: &dyn ToTokens) -> String {
    let text = tokens.to_token_stream().to_string();
    shorten(&text)
}

fn source_pat(pat: &Pat) -> String {
    shorten(&pat.to_token_stream().to_string())
}

fn shorten(text: &str) -> String {
    let mut text = text
        .replace(" . ", ".")
        .replace(" :: ", "::")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" !(", "!(")
        .replace("! ", "!");
    // Markers stand for asks; show them as the macro the user wrote.
    while let Some(start) = text.find(super::syntax::ASK_MARKER) {
        let digits = text[start + super::syntax::ASK_MARKER.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        text.replace_range(
            start..start + super::syntax::ASK_MARKER.len() + digits,
            "ask!",
        );
    }
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// A Mermaid label in quotes, with the characters Mermaid would misread escaped.
fn quoted(text: &str) -> String {
    let escaped = text
        .replace('"', "#quot;")
        .replace('<', "#lt;")
        .replace('>', "#gt;")
        .replace('|', "#124;");
    format!("\"{escaped}\"")
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::Diagnostics;

    fn chart(body: syn::Block) -> String {
        let mut diagnostics = Diagnostics::default();
        let analysis = super::super::analyze::analyze(&body, &mut diagnostics);
        assert!(diagnostics.is_empty());
        super::flowchart("budget", &analysis.body, &analysis.asks)
    }

    /// A labeled `break` out of an inner loop, a `continue`, a `return` in an `if` that does not
    /// ask and a `let .. else` each draw their edge.
    #[test]
    fn leaving_statements_draw_their_edges() {
        let text = chart(syn::parse_quote!({
            let Some(limit) = ask!(elicit::<Limit>("Limit?")).ok() else {
                return "none".to_owned();
            };
            'outer: while let Some(item) = queue.pop_front() {
                if item.is_empty() {
                    continue;
                }
                loop {
                    spent += ask!(amount = elicit::<Amount>("Amount?")).ok().unwrap_or(0);
                    if spent > limit {
                        break 'outer;
                    }
                    if spent >= 10 {
                        break;
                    }
                }
            }
            format!("{spent}")
        }));
        let expected = r#"flowchart TD
    n0(["budget"])
    n1[/"ask limit"/]
    n0 --> n1
    n2{"let Some(limit) else"}
    n1 --> n2
    n3{{"while let Some(item) = queue.pop_front()"}}
    n2 --> n3
    n4{"if item.is_empty()"}
    n3 -->|"next"| n4
    n4 -->|"yes"| n3
    n5{{"loop"}}
    n4 -->|"no"| n5
    n6[/"ask amount"/]
    n5 -->|"next"| n6
    n7{"if spent #gt; limit"}
    n6 --> n7
    n8{"if spent #gt;= 10"}
    n7 -->|"no"| n8
    n8 -->|"no"| n5
    n8 -->|"yes"| n3
    n9([done])
    n3 -->|"done"| n9
    n7 -->|"yes"| n9
    n2 -->|"else"| n9
"#;
        assert_eq!(text, expected, "\n{text}");
    }
}
