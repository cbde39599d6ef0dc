//! The layout fingerprint: a hash of the tool's code and its ask keys, bound into every state
//! so that a state sealed by another layout of the tool never opens.
//!
//! It hashes a canonical form of the tokens, never `TokenStream::to_string()`: how a compiler
//! prints tokens (spacing, escapes in string literals and doc comments) may change between
//! toolchains, and must not invalidate states in flight.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;

use super::{analyze::AskSite, parse::ToolFn};

/// FNV-1a, 64 bits: stable across builds and platforms, and not security-relevant here (the
/// state is authenticated; this only tells honest layouts apart).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// A length-prefixed string, so that concatenations cannot collide.
    fn text(&mut self, text: &str) {
        self.bytes(&(text.len() as u64).to_le_bytes());
        self.bytes(text.as_bytes());
    }
}

/// The fingerprint of `tool`: its explicit `version` or its signature and body, the keys of
/// each ask point in order, and whether it allows replay.
pub(crate) fn fingerprint(tool: &ToolFn, asks: &[AskSite]) -> u64 {
    let mut hash = Fnv::new();
    hash.text("mrtr/layout/1");
    // A state handed out as single-use must not open in a build that runs it any number of
    // times, even under a pinned `version`. Single-use tools hash nothing here, so their
    // fingerprints, and states in flight, stay as they were.
    if tool.replay_allowed {
        hash.text("replay allowed");
    }
    match &tool.version {
        Some(version) => {
            hash.text("version");
            hash.text(&version.value());
        }
        None => {
            let sig = &tool.item.sig;
            let block = &tool.item.block;
            hash.text("code");
            feed_tokens(&mut hash, quote!(#sig #block));
        }
    }
    for ask in asks {
        hash.text("ask");
        hash.bytes(&ask.id.to_le_bytes());
        for key in &ask.keys {
            hash.text(&key.value());
        }
    }
    hash.0
}

fn feed_tokens(hash: &mut Fnv, tokens: TokenStream) {
    for token in tokens {
        match token {
            TokenTree::Group(group) => {
                hash.bytes(match group.delimiter() {
                    Delimiter::Parenthesis => b"(",
                    Delimiter::Bracket => b"[",
                    Delimiter::Brace => b"{",
                    Delimiter::None => b"0",
                });
                feed_tokens(hash, group.stream());
                hash.bytes(b")");
            }
            TokenTree::Ident(ident) => {
                hash.bytes(b"i");
                hash.text(&ident.to_string());
            }
            // Not its spacing: whether `;` touches the `#` after it is formatting. In code that
            // parses, spacing only joins operators (`+=`), which no other spacing could split.
            TokenTree::Punct(punct) => {
                hash.bytes(b"p");
                hash.text(punct.as_char().encode_utf8(&mut [0; 4]));
            }
            TokenTree::Literal(literal) => {
                hash.bytes(b"l");
                feed_literal(hash, literal);
            }
        }
    }
}

/// A literal by its value, not its spelling: `"it's"`, `"it\'s"` and `r"it's"` are one string.
fn feed_literal(hash: &mut Fnv, literal: proc_macro2::Literal) {
    match syn::Lit::new(literal) {
        syn::Lit::Str(lit) => {
            hash.text("str");
            hash.text(&lit.value());
            hash.text(lit.suffix());
        }
        syn::Lit::ByteStr(lit) => {
            hash.text("bytes");
            hash.bytes(&(lit.value().len() as u64).to_le_bytes());
            hash.bytes(&lit.value());
        }
        syn::Lit::CStr(lit) => {
            hash.text("cstr");
            hash.bytes(lit.value().as_bytes_with_nul());
        }
        syn::Lit::Byte(lit) => {
            hash.text("byte");
            hash.bytes(&[lit.value()]);
        }
        syn::Lit::Char(lit) => {
            hash.text("char");
            hash.text(lit.value().encode_utf8(&mut [0; 4]));
        }
        syn::Lit::Int(lit) => {
            hash.text("int");
            hash.text(lit.base10_digits());
            hash.text(lit.suffix());
        }
        syn::Lit::Float(lit) => {
            hash.text("float");
            hash.text(lit.base10_digits());
            hash.text(lit.suffix());
        }
        syn::Lit::Bool(lit) => hash.text(if lit.value { "true" } else { "false" }),
        // A kind of literal syn does not know yet: its spelling is all there is.
        other => {
            hash.text("verbatim");
            hash.text(&quote!(#other).to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(tokens: TokenStream) -> u64 {
        let mut hash = Fnv::new();
        feed_tokens(&mut hash, tokens);
        hash.0
    }

    fn parsed(source: &str) -> u64 {
        of(source.parse().unwrap())
    }

    #[test]
    fn spelling_and_spacing_do_not_matter() {
        let reference = parsed("let s = \"it's\"; x += 0x10; /// it's\nfn f() {}");
        for variant in [
            "let s=\"it\\'s\";x+=16;#[doc = \" it's\"] fn f(){}",
            "let   s = r\"it's\" ;\n x +=\t0x10;\n#[doc=\" it\\x27s\"]\nfn f ( ) { }",
        ] {
            assert_eq!(parsed(variant), reference, "{variant}");
        }
    }

    #[test]
    fn code_changes_do_matter() {
        let reference = parsed("let s = \"a\"; x += 1;");
        for variant in [
            "let s = \"b\"; x += 1;",
            "let s = \"a\"; x -= 1;",
            "let s = \"a\"; x += 1u8;",
            "let t = \"a\"; x += 1;",
            "let s = (\"a\"); x += 1;",
        ] {
            assert_ne!(parsed(variant), reference, "{variant}");
        }
    }

    #[test]
    fn the_encoding_is_pinned() {
        // Changing how tokens are fed changes every fingerprint, and so refuses every state
        // in flight: bump the `mrtr/layout/N` label deliberately if it must change.
        assert_eq!(
            parsed("async fn f(&self) -> u8 { ask!(k = q(\"x\")) }"),
            0x345b_2049_93df_c604
        );
    }

    fn expanded_fingerprint(attr: TokenStream, item: TokenStream) -> String {
        let expanded = crate::tool::expand_pretty(attr, item);
        let at = expanded.find("fingerprint: ").unwrap();
        expanded[at..].lines().next().unwrap().to_owned()
    }

    #[test]
    fn a_pinned_version_still_covers_the_ask_keys() {
        let with_key = |key: &str| {
            let key = proc_macro2::Ident::new(key, proc_macro2::Span::call_site());
            expanded_fingerprint(
                quote!(version = "3"),
                quote! {
                    #[tool]
                    async fn t(&self) -> String {
                        let a = ask!(#key = elicit::<Name>("Name?"));
                        a.ok().map(|n| n.name).unwrap_or_default()
                    }
                },
            )
        };
        assert_eq!(with_key("name"), with_key("name"));
        assert_ne!(with_key("name"), with_key("full_name"));
    }

    #[test]
    fn allowing_replay_changes_the_fingerprint_even_under_a_pinned_version() {
        let item = quote! {
            #[tool]
            async fn t(&self) -> String {
                let a = ask!(name = elicit::<Name>("Name?"));
                a.ok().map(|n| n.name).unwrap_or_default()
            }
        };
        for version in [quote!(), quote!(version = "3",)] {
            let single_use = expanded_fingerprint(version.clone(), item.clone());
            let replayed = expanded_fingerprint(quote!(#version replay = "allow"), item.clone());
            assert_ne!(single_use, replayed, "{version}");
        }
    }
}
