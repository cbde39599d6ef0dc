//! A Mermaid flowchart of a tool's ask points and the control flow between them, drawn from
//! the analyzed body. Statements without ask points are left out.

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
    };
    let start = chart.node(&format!("([{}])", quoted(name)));
    let exits = chart.block(body, vec![(start, None)]);
    let end = chart.node("([done])");
    chart.connect(&exits, end);
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
            if asks_in_stmt(stmt).is_empty() && !starts_task_in_stmt(stmt) {
                continue;
            }
            exits = match stmt {
                Stmt::Local(local) => match &local.init {
                    Some(init) => self.expr(&init.expr, exits),
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
            Expr::Loop(e) => self.looping("loop", None, &e.body, exits),
            Expr::While(e) => {
                let head = format!("while {}", source(&*e.cond));
                self.looping(&head, Some(&e.cond), &e.body, exits)
            }
            Expr::ForLoop(e) => {
                let exits = self.expr(&e.expr, exits);
                let head = format!("for {} in {}", source_pat(&e.pat), source(&*e.expr));
                self.looping(&head, None, &e.body, exits)
            }
            Expr::Block(e) => self.block(&e.block, exits),
            Expr::Unsafe(e) => self.block(&e.block, exits),
            other if asks_in_expr(other).is_empty() && !starts_task_in_expr(other) => exits,
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

    fn looping(&mut self, head: &str, cond: Option<&Expr>, body: &Block, exits: Exits) -> Exits {
        let node = self.node(&format!("{{{{{}}}}}", quoted(head)));
        self.connect(&exits, node);
        let mut entry = vec![(node, Some("next".to_owned()))];
        if let Some(cond) = cond {
            entry = self.expr(cond, entry);
        }
        let back = self.block(body, entry);
        self.connect(&back, node);
        vec![(node, Some("done".into()))]
    }
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
        .replace(" )", ")");
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
