//! Part of stage 1: `.accepted()?` in a function whose error type is rmcp's `ErrorData`.
//!
//! mrtr has no `From<Refused> for ErrorData`, on purpose: the tool chooses whether a refusal is
//! an error result the model reads or a JSON-RPC error. rustc alone would only say that the
//! conversion is missing, so say the two ways to write it, at the `?`. The `?` is then read as
//! an `unwrap_or_else` that never runs, so that rustc adds no error of its own.

use syn::{
    Expr, GenericArgument, ImplItemFn, PathArguments, ReturnType, Type,
    visit_mut::{self, VisitMut},
};

use super::Kind;
use crate::diagnostics::Diagnostics;

pub(crate) fn check(kind: Kind, item: &mut ImplItemFn, diagnostics: &mut Diagnostics) {
    let Some(error_type) = error_data_result(&item.sig.output) else {
        return;
    };
    let mut check = Check {
        kind,
        error_type,
        diagnostics,
    };
    check.visit_block_mut(&mut item.block);
}

/// `Result<_, ErrorData>` (or rmcp's examples' `McpError`): the error type's name as written.
fn error_data_result(output: &ReturnType) -> Option<String> {
    let ReturnType::Type(_, ty) = output else {
        return None;
    };
    let Type::Path(path) = &**ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    let Some(GenericArgument::Type(Type::Path(error))) = arguments.args.iter().nth(1) else {
        return None;
    };
    let name = error.path.segments.last()?.ident.to_string();
    matches!(name.as_str(), "ErrorData" | "McpError").then_some(name)
}

struct Check<'d> {
    kind: Kind,
    error_type: String,
    diagnostics: &'d mut Diagnostics,
}

impl VisitMut for Check<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
        let Expr::Try(tried) = expr else { return };
        let Expr::MethodCall(call) = &*tried.expr else {
            return;
        };
        if call.method != "accepted" || !call.args.is_empty() {
            return;
        }
        let error = &self.error_type;
        let as_result = match self.kind {
            Kind::Tool => {
                " Or, in a tool returning `CallToolResult`, an error result the model reads: \
                 `match ask!(..).accepted() { Ok(answer) => answer, Err(refused) => return \
                 Ok(refused.into()) }`"
            }
            _ => "",
        };
        let method = &call.method;
        let question = tried.question_token;
        self.diagnostics.error(
            quote::quote!(#method #question),
            format!(
                "`?` cannot turn a refusal into `{error}`: mrtr has no such conversion, so that \
                 you choose what the client sees. A JSON-RPC error: `.accepted().map_err(|refused| \
                 {error}::invalid_params(refused.to_string(), None))?`.{as_result}"
            ),
        );
        let accepted = (*tried.expr).clone();
        *expr = syn::parse_quote_spanned!(tried.question_token.span=>
            #accepted.unwrap_or_else(|_| ::core::unreachable!())
        );
    }

    // A `?` there leaves the closure, the async block or the item, not the tool.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}

    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
