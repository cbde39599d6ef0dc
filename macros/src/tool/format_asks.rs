//! Stage 2, before the ask points are numbered: a `format!`, `println!` or `write!` whose
//! arguments ask (`format!("{who} {}", ask!(..)..)`) takes its arguments from a `match` on a
//! tuple of references to them, as the macros themselves once expanded:
//! `match (&ask!(..)..,) { (__mrtr_format0,) => format!("{who} {}", __mrtr_format0) }`. The
//! arguments are then expressions of the body, evaluated in the same order, where an ask may
//! stand; the macro only borrows them, as before.
//!
//! A `vec![a, b]` whose items ask becomes `::std::vec::Vec::from([a, b])`: the same items,
//! moved in the same order, in an array the rest of the pipeline sees into.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{
    Expr, Ident, Stmt, Token,
    parse::{ParseStream, Parser},
    visit_mut::{self, VisitMut},
};

use super::syntax::{macro_items, tokens_mention_ask};

/// The macros that format their arguments, and how many arguments come before the format string.
const FORMATTING: &[(&str, usize)] = &[
    ("format", 0),
    ("print", 0),
    ("println", 0),
    ("eprint", 0),
    ("eprintln", 0),
    ("write", 1),
    ("writeln", 1),
];

/// Unfolds every formatting macro of `body` whose arguments ask.
pub(crate) fn unfold(body: &mut syn::Block) {
    Unfold { next: 0 }.visit_block_mut(body);
}

struct Unfold {
    /// The number of the next binding made.
    next: u32,
}

impl VisitMut for Unfold {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
        if let Expr::Macro(mac) = expr
            && let Some(unfolded) = self.unfolded(&mac.mac)
        {
            *expr = unfolded;
        }
    }

    fn visit_stmt_mut(&mut self, stmt: &mut Stmt) {
        visit_mut::visit_stmt_mut(self, stmt);
        if let Stmt::Macro(mac) = stmt
            && let Some(unfolded) = self.unfolded(&mac.mac)
        {
            let semi = mac.semi_token.or_else(|| Some(Default::default()));
            *stmt = Stmt::Expr(unfolded, semi);
        }
    }
}

/// An argument after the format string: `expr` or `name = expr`.
struct Argument {
    name: Option<Ident>,
    value: Expr,
}

impl Unfold {
    fn unfolded(&mut self, mac: &syn::Macro) -> Option<Expr> {
        let name = mac.path.segments.last()?.ident.to_string();
        if name == "vec" {
            return self.vec_unfolded(mac);
        }
        let &(_, leading) = FORMATTING.iter().find(|(known, _)| *known == name)?;
        tokens_mention_ask(&mac.tokens)?;
        let (before, mut arguments) = (|input: ParseStream| parse(input, leading))
            .parse2(mac.tokens.clone())
            .ok()?;
        if arguments.is_empty() {
            return None;
        }
        // `format!("{}", format!("{}", ask!(..)))`
        for argument in &mut arguments {
            self.visit_expr_mut(&mut argument.value);
        }
        let bound: Vec<Ident> = arguments
            .iter()
            .map(|_| {
                self.next += 1;
                Ident::new(
                    &format!("__mrtr_format{}", self.next - 1),
                    Span::mixed_site(),
                )
            })
            .collect();
        let references = arguments.iter().map(|argument| {
            let value = &argument.value;
            match value {
                Expr::Binary(_) | Expr::Cast(_) | Expr::Range(_) | Expr::Closure(_) => {
                    quote!(&(#value))
                }
                _ => quote!(&#value),
            }
        });
        let passed = arguments
            .iter()
            .zip(&bound)
            .map(|(argument, ident)| match &argument.name {
                Some(name) => quote!(#name = #ident),
                None => quote!(#ident),
            });
        let path = &mac.path;
        syn::parse2(quote! {
            match (#(#references,)*) {
                (#(#bound,)*) => #path!(#before #(, #passed)*),
            }
        })
        .ok()
    }

    /// `vec![a, b]` whose items ask, as `::std::vec::Vec::from([a, b])`; not `vec![x; n]`.
    fn vec_unfolded(&mut self, mac: &syn::Macro) -> Option<Expr> {
        tokens_mention_ask(&mac.tokens)?;
        let mut items = macro_items(mac)?;
        // `vec![format!("{}", ask!(..))]`
        for item in &mut items {
            self.visit_expr_mut(item);
        }
        let items = items.iter();
        syn::parse2(quote!(::std::vec::Vec::from([#(#items),*]))).ok()
    }
}

/// The tokens up to and with the format string (a destination first for `write!`), and the
/// arguments after it; an error unless the format string is a literal.
fn parse(input: ParseStream, leading: usize) -> syn::Result<(TokenStream, Vec<Argument>)> {
    let mut before = TokenStream::new();
    for _ in 0..leading {
        let destination: Expr = input.parse()?;
        let comma: Token![,] = input.parse()?;
        before.extend(quote!(#destination #comma));
    }
    let format: syn::LitStr = input.parse()?;
    before.extend(quote!(#format));
    let mut arguments = Vec::new();
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        let name = if input.peek(Ident) && input.peek2(Token![=]) && !input.peek2(Token![==]) {
            let name: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            Some(name)
        } else {
            None
        };
        arguments.push(Argument {
            name,
            value: input.parse()?,
        });
    }
    Ok((before, arguments))
}

#[cfg(test)]
mod tests {
    use quote::{ToTokens, quote};

    use super::*;

    fn unfolded(body: TokenStream) -> String {
        let mut block: syn::Block = syn::parse2(quote!({ #body })).unwrap();
        unfold(&mut block);
        block.to_token_stream().to_string()
    }

    #[test]
    fn formatting_macros_whose_arguments_ask_match_on_references_to_them() {
        let text = unfolded(quote! {
            let s = format!("{who} {} {}", a + 1, ask!(n = q()).num);
            println!("{}", ask!(m = q()));
            write!(out, "{x}", x = ask!(k = q())).unwrap();
        });
        assert!(
            text.contains("match (& (a + 1) , & ask ! (n = q ()) . num ,)"),
            "{text}"
        );
        assert!(text.contains("(__mrtr_format0 , __mrtr_format1 ,) => format ! (\"{who} {} {}\" , __mrtr_format0 , __mrtr_format1)"), "{text}");
        assert!(
            text.contains("(__mrtr_format2 ,) => println ! (\"{}\" , __mrtr_format2)"),
            "{text}"
        );
        assert!(
            text.contains("(__mrtr_format3 ,) => write ! (out , \"{x}\" , x = __mrtr_format3)"),
            "{text}"
        );
    }

    #[test]
    fn a_vec_whose_items_ask_is_an_array_made_a_vec() {
        let text = unfolded(quote! {
            let v = vec![a.len(), ask!(n = q()).num, format!("{}", ask!(m = q())).len()];
        });
        assert!(
            text.contains(
                ":: std :: vec :: Vec :: from ([a . len () , ask ! (n = q ()) . num , match"
            ),
            "{text}"
        );
        assert!(text.contains("(__mrtr_format0 ,) => format !"), "{text}");
    }

    #[test]
    fn nested_formats_unfold_and_other_macros_or_arguments_without_asks_stay() {
        let text = unfolded(quote! {
            let s = format!("{}", format!("[{}]", ask!(n = q())));
        });
        assert_eq!(text.matches("match").count(), 2, "{text}");
        let body = quote! {
            let s = format!("{} {}", a, b);
            let v = vec![a, b];
            let w = vec![ask!(n = q()); 3];
            let t = format!(concat!("{}", "!"), ask!(n = q()));
        };
        assert_eq!(unfolded(body.clone()), quote!({ #body }).to_string());
    }
}
