//! `#[mrtr_tool]`: parse → analyze → lower → emit.

use proc_macro2::TokenStream;
use quote::quote;

use crate::diagnostics::Diagnostics;

mod analyze;
mod ask_args;
mod borrowed;
mod borrowed_items;
mod bound_first;
mod closures;
mod dead_after;
mod deferred_init;
mod desugar;
mod diagram;
mod emit;
mod fallback;
mod fingerprint;
mod format_asks;
mod given_anew;
mod idents;
mod kept_borrows;
mod let_chains;
mod liveness;
mod lower;
mod macro_reads;
mod moved_fields;
mod overwritten;
mod parse;
mod refusal;
mod remade;
mod remade_arms;
mod remade_closures;
mod scopes;
mod syntax;

/// Which MCP request the machine answers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Tool,
    Prompt,
    Resource,
}

impl Kind {
    /// The attribute as the user writes it.
    pub(crate) fn attribute(self) -> &'static str {
        match self {
            Kind::Tool => "#[mrtr_tool]",
            Kind::Prompt => "#[mrtr_prompt]",
            Kind::Resource => "#[mrtr_resource]",
        }
    }

    /// The rmcp attribute it stacks on, if any.
    pub(crate) fn rmcp_attribute(self) -> Option<&'static str> {
        match self {
            Kind::Tool => Some("tool"),
            Kind::Prompt => Some("prompt"),
            Kind::Resource => None,
        }
    }

    /// Whether `attr` is that rmcp attribute (`#[tool]`, `#[rmcp::tool(..)]`).
    pub(crate) fn is_rmcp_attribute(self, attr: &syn::Attribute) -> bool {
        self.rmcp_attribute()
            .is_some_and(|name| attr.path().segments.last().is_some_and(|s| s.ident == name))
    }
}

pub(crate) fn expand(kind: Kind, attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut diagnostics = Diagnostics::default();
    let Some(mut tool) = parse::parse(kind, attr, item.clone(), &mut diagnostics) else {
        let errors = diagnostics.into_compile_errors();
        return quote!(#errors #item);
    };
    if !diagnostics.is_empty() {
        return fallback::signature_fallback(kind, diagnostics, &tool.item);
    }
    refusal::check(kind, &mut tool.item, &mut diagnostics);

    let analysis = analyze::analyze(&tool.item.block, &mut diagnostics);
    borrowed::check(&analysis.body, &mut diagnostics);
    // The user's locals whose data may be `'static`, for both checks of collected borrows.
    let static_locals = syntax::static_locals(&analysis.body);
    kept_borrows::check(&analysis.body, &static_locals, &mut diagnostics);
    closures::check(&analysis.body, &mut diagnostics);
    let flow = diagram::flowchart(
        &tool.item.sig.ident.to_string(),
        &analysis.body,
        &analysis.asks,
    );
    let task_start = task_start(kind, &tool, &analysis.task_starts, &mut diagnostics);
    let fingerprint = fingerprint::fingerprint(&tool, &analysis.asks);
    let mut body = analysis.body;
    let asks = analysis.asks.len() as u32;
    let machine = idents::machine();
    moved_fields::clone_moved_fields(&mut body);
    deferred_init::give_values(&mut body);
    given_anew::rebind(&mut body);
    remade_arms::rebind_in_arms(&mut body, &machine);
    desugar::desugar(&mut body, &machine, &mut diagnostics);
    remade::remake_borrows(&mut body, syntax::parameter_names(&tool.item.sig));
    let captures = syntax::captures_in(&body);
    scopes::narrow_scopes(&mut body, &captures);
    let borrowing_items = syntax::borrowing_items(&body);
    let mut lowering = lower::Lowering::new(
        analysis.asks,
        task_start.clone(),
        captures,
        borrowing_items,
        static_locals,
        machine.clone(),
        &mut diagnostics,
    );
    lowering.lower_block(&mut body);
    if !diagnostics.is_empty() {
        return fallback::with_errors(diagnostics, &tool.item);
    }
    emit::emit(emit::Emit {
        kind,
        tool: &tool,
        body,
        asks,
        fingerprint,
        machine,
        flow,
        task_start_marked: task_start.is_some(),
    })
}

/// The `ask!(start_task())`, checked: one at most, and only in a task tool.
fn task_start(
    kind: Kind,
    tool: &parse::ToolFn,
    starts: &[analyze::TaskStart],
    diagnostics: &mut Diagnostics,
) -> Option<syn::Path> {
    let (first, again) = starts.split_first()?;
    if kind != Kind::Tool {
        diagnostics.error_at(
            first.span,
            format!(
                "`ask!(start_task())` marks where a task begins, and only a tool runs as a \
                 task, not a `{}` function: remove it",
                kind.attribute()
            ),
        );
    } else if tool.task.is_none() {
        diagnostics.error_at(
            first.span,
            "`ask!(start_task())` marks where a task begins, but this tool does not run as a \
             task: add `task = \"optional\"` or `task = \"required\"` to `#[mrtr_tool]`",
        );
    }
    for again in again {
        diagnostics.error_at(
            again.span,
            "a task starts once: keep a single `ask!(start_task())`, where the task begins",
        );
    }
    Some(first.path.clone())
}

/// The expansion as text, for snapshot tests of the generated code.
#[cfg(test)]
pub(crate) fn expand_pretty(attr: TokenStream, item: TokenStream) -> String {
    expand_pretty_kind(Kind::Tool, attr, item)
}

#[cfg(test)]
pub(crate) fn expand_pretty_kind(kind: Kind, attr: TokenStream, item: TokenStream) -> String {
    let expanded = expand(kind, attr, item);
    let mut file: syn::File =
        syn::parse2(quote!(impl Tool { #expanded })).expect("expansion parses");
    // Show each `ask!(@lowered call)` as the call it expands to, as `cargo expand` would.
    struct Unwrap;
    impl syn::visit_mut::VisitMut for Unwrap {
        fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
            if let syn::Expr::Macro(mac) = expr
                && let Some(rest) = mac.mac.tokens.to_string().strip_prefix("@ lowered")
            {
                *expr = syn::parse_str(rest).expect("a lowered ask is an expression");
            }
            syn::visit_mut::visit_expr_mut(self, expr);
        }

        fn visit_stmt_mut(&mut self, stmt: &mut syn::Stmt) {
            if let syn::Stmt::Macro(mac) = stmt
                && let Some(rest) = mac.mac.tokens.to_string().strip_prefix("@ lowered")
            {
                let expr: syn::Expr = syn::parse_str(rest).expect("a lowered ask is an expression");
                *stmt = syn::Stmt::Expr(expr, mac.semi_token);
            }
            syn::visit_mut::visit_stmt_mut(self, stmt);
        }
    }
    syn::visit_mut::VisitMut::visit_file_mut(&mut Unwrap, &mut file);
    prettyplease::unparse(&file)
}
