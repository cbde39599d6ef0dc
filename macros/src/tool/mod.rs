//! `#[mrtr_tool]`: parse → analyze → lower → emit.

use proc_macro2::TokenStream;
use quote::quote;

use crate::diagnostics::Diagnostics;

mod analyze;
mod emit;
mod lower;
mod parse;
mod scopes;
mod syntax;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut diagnostics = Diagnostics::default();
    let Some(tool) = parse::parse(attr, item.clone(), &mut diagnostics) else {
        let errors = diagnostics.into_compile_errors();
        return quote!(#errors #item);
    };
    if !diagnostics.is_empty() {
        return fallback(diagnostics, &tool.item);
    }

    let analysis = analyze::analyze(&tool.item.block, &mut diagnostics);
    let mut body = analysis.body;
    let asks = analysis.asks.len() as u32;
    scopes::narrow_scopes(&mut body);
    let mut lowering = lower::Lowering::new(analysis.asks, &mut diagnostics);
    lowering.lower_block(&mut body);
    let machine = lowering.machine.clone();
    if !diagnostics.is_empty() {
        return fallback(diagnostics, &tool.item);
    }
    emit::emit(emit::Emit {
        tool: &tool,
        body,
        asks,
        machine,
    })
}

fn fallback(diagnostics: Diagnostics, item: &syn::ImplItemFn) -> TokenStream {
    let errors = diagnostics.into_compile_errors();
    let best_effort = emit::best_effort(item);
    quote!(#errors #best_effort)
}

/// The expansion as text, for snapshot tests of the generated code.
#[cfg(test)]
pub(crate) fn expand_pretty(attr: TokenStream, item: TokenStream) -> String {
    let expanded = expand(attr, item);
    let file: syn::File = syn::parse2(quote!(impl Tool { #expanded })).expect("expansion parses");
    prettyplease::unparse(&file)
}
