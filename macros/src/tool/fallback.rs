//! What `#[mrtr_tool]` emits next to its errors: code that still type-checks around them, so
//! that IDEs keep their completions and the user sees only the errors that matter.

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{Expr, Ident, ImplItemFn};

use super::{
    Kind,
    ask_args::{AskArgs, AskKey},
};
use crate::diagnostics::Diagnostics;

/// Next to signature errors, a method rmcp can still route, so that its own macros add no
/// errors of their own, and the user's function under another name for IDEs.
pub(crate) fn signature_fallback(
    kind: Kind,
    diagnostics: Diagnostics,
    item: &syn::ImplItemFn,
) -> TokenStream {
    let errors = diagnostics.into_compile_errors();
    let routed_by_rmcp = |attr: &syn::Attribute| kind.is_rmcp_attribute(attr);
    if item.sig.asyncness.is_none() || !item.attrs.iter().any(routed_by_rmcp) {
        let best_effort = best_effort(item);
        return quote!(#errors #best_effort);
    }
    let name = &item.sig.ident;
    let attrs = &item.attrs;
    let stub_result = match kind {
        Kind::Prompt => quote!(::mrtr::__private::rmcp::model::GetPromptResult),
        _ => quote!(::mrtr::__private::rmcp::model::CallToolResult),
    };
    let mut unrouted = item.clone();
    unrouted.attrs.retain(|attr| !routed_by_rmcp(attr));
    unrouted.sig.ident = super::idents::unrouted(name);
    let unrouted = best_effort(&unrouted);
    quote! {
        #errors
        #(#attrs)*
        async fn #name(&self) -> #stub_result {
            ::core::unreachable!("this method does not compile")
        }
        #[allow(dead_code, unused)]
        #unrouted
    }
}

/// Next to errors in the body: the method as written, asks typed by placeholders.
pub(crate) fn with_errors(diagnostics: Diagnostics, item: &syn::ImplItemFn) -> TokenStream {
    let errors = diagnostics.into_compile_errors();
    let best_effort = best_effort(item);
    quote!(#errors #best_effort)
}

/// The fallback when the function has errors: the original method, with each `ask!` replaced by
/// a typed placeholder, so that IDEs still see the tool's types next to the errors.
pub(crate) fn best_effort(item: &ImplItemFn) -> TokenStream {
    let mut item = item.clone();
    let block = &item.block;
    let bound = question_locals(block);
    let rewritten = placeholders(quote!(#block), &bound);
    if let Ok(block) = syn::parse2(rewritten) {
        item.block = block;
    }
    item.into_token_stream()
}

/// Every `ask!(..)` in `tokens`, at any depth and in other macros' arguments too, becomes
/// `ask!(@placeholder ..)` through the user's own path, with its questions named so that the
/// placeholder can type them.
fn placeholders(tokens: TokenStream, bound: &BTreeSet<String>) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut index = 0;
    while index < tokens.len() {
        let is_ask = matches!(&tokens[index], TokenTree::Ident(ident) if ident == "ask")
            && matches!(tokens.get(index + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
            && matches!(tokens.get(index + 2), Some(TokenTree::Group(_)));
        if is_ask {
            let TokenTree::Group(group) = &tokens[index + 2] else {
                unreachable!()
            };
            let inner = placeholders(group.stream(), bound);
            let questions = named_questions(inner, bound);
            let mut replaced = Group::new(group.delimiter(), quote!(@placeholder #questions));
            replaced.set_span(group.span());
            out.extend([
                tokens[index].clone(),
                tokens[index + 1].clone(),
                TokenTree::Group(replaced),
            ]);
            index += 3;
            continue;
        }
        match &tokens[index] {
            TokenTree::Group(group) => {
                let mut replaced =
                    Group::new(group.delimiter(), placeholders(group.stream(), bound));
                replaced.set_span(group.span());
                out.push(TokenTree::Group(replaced));
            }
            other => out.push(other.clone()),
        }
        index += 1;
    }
    out.into_iter().collect()
}

/// The locals of `block` that hold a question (`let q = elicit::<T>(..);`), an error of its
/// own that `ask!(q)` still types from.
fn question_locals(block: &syn::Block) -> BTreeSet<String> {
    struct Names(BTreeSet<String>);
    impl<'ast> syn::visit::Visit<'ast> for Names {
        fn visit_local(&mut self, local: &'ast syn::Local) {
            if let Some(name) = super::analyze::question_local(local) {
                self.0.insert(name.to_string());
            }
            syn::visit::visit_local(self, local);
        }
    }
    let mut names = Names(BTreeSet::new());
    syn::visit::Visit::visit_block(&mut names, block);
    names.0
}

/// `a = q1, q2` becomes `a = q1, ask_2 = q2`; what does not parse becomes nothing, which the
/// placeholder turns into `unreachable!()`.
fn named_questions(tokens: TokenStream, bound: &BTreeSet<String>) -> TokenStream {
    let Ok(args) = syn::parse2::<AskArgs>(tokens) else {
        return quote!();
    };
    match args.questions.as_slice() {
        // `ask!(name)` with no question in `name`: a key without its question, reported so;
        // the name alone would add rustc's "cannot find value".
        [(None, Expr::Path(path))]
            if path
                .path
                .get_ident()
                .is_some_and(|name| !bound.contains(&name.to_string())) =>
        {
            return quote!();
        }
        [(_, question)] => return quote!(#question),
        _ => {}
    }
    let pairs = args
        .questions
        .iter()
        .enumerate()
        .map(|(index, (key, question))| {
            let key = match key {
                Some(AskKey::Name(name)) => name.clone(),
                Some(AskKey::Text(text)) => Ident::new(&format!("key_{}", index + 1), text.span()),
                None => Ident::new(&format!("ask_{}", index + 1), Span::call_site()),
            };
            quote!(#key = #question)
        });
    quote!(#(#pairs),*)
}
