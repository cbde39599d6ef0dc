//! The arguments of `ask!`: `key = question, key = question, ..`, where one question may go
//! without a key and a key is a name or a string. The one parser of them: `analyze` checks and
//! numbers the asks it reads, and the fallback expansion types its placeholders from them.

use syn::{
    Expr, Ident, LitStr, Token,
    ext::IdentExt,
    parse::{Parse, ParseStream},
};

/// A question's key as written.
#[derive(Clone)]
pub(crate) enum AskKey {
    Name(Ident),
    Text(LitStr),
}

impl AskKey {
    /// The key in `inputRequests`.
    pub(crate) fn text(&self) -> LitStr {
        match self {
            Self::Name(ident) => LitStr::new(&ident.unraw().to_string(), ident.span()),
            Self::Text(text) => text.clone(),
        }
    }
}

/// The questions of one `ask!`, as written; checking them is `analyze`'s job.
pub(crate) struct AskArgs {
    pub(crate) questions: Vec<(Option<AskKey>, Expr)>,
    /// Keys written almost right (`name: ..`, a keyword), read as meant so that the fallback
    /// expansion still types the answer; `analyze` reports them.
    pub(crate) mistakes: Vec<syn::Error>,
}

/// `name: question` or `type = question`: the key as meant, and what to write instead.
fn miswritten_key(input: ParseStream) -> syn::Result<Option<(AskKey, syn::Error)>> {
    if input.peek(Ident) && input.peek2(Token![:]) && !input.peek2(Token![::]) {
        let key: Ident = input.parse()?;
        let colon: Token![:] = input.parse()?;
        let mistake = syn::Error::new(
            colon.span,
            format!("a key is given with `=`: `ask!({key} = ..)`"),
        );
        return Ok(Some((AskKey::Name(key), mistake)));
    }
    if !input.peek(Ident) && input.peek(Ident::peek_any) && input.peek2(Token![=]) {
        let keyword = Ident::parse_any(input)?;
        input.parse::<Token![=]>()?;
        let mistake = syn::Error::new(
            keyword.span(),
            format!(
                "`{keyword}` is a Rust keyword, so it cannot name a key: write the key as a \
                 string, `ask!(\"{keyword}\" = ..)`, or choose another name"
            ),
        );
        let text = LitStr::new(&keyword.to_string(), keyword.span());
        return Ok(Some((AskKey::Text(text), mistake)));
    }
    Ok(None)
}

impl Parse for AskArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut questions = Vec::new();
        let mut mistakes = Vec::new();
        while !input.is_empty() {
            if let Some((key, mistake)) = miswritten_key(input)? {
                mistakes.push(mistake);
                questions.push((Some(key), input.parse::<Expr>()?));
                if !input.is_empty() {
                    input.parse::<Token![,]>()?;
                }
                continue;
            }
            let key = if (input.peek(Ident) || input.peek(LitStr))
                && input.peek2(Token![=])
                && !input.peek2(Token![==])
            {
                let key = if input.peek(LitStr) {
                    AskKey::Text(input.parse()?)
                } else {
                    AskKey::Name(input.parse()?)
                };
                input.parse::<Token![=]>()?;
                Some(key)
            } else {
                None
            };
            let question = match (key.is_none(), input.parse::<Expr>()?) {
                // `format!("k{i}") = ..`: a key computed at run time.
                (true, Expr::Assign(assign)) => {
                    mistakes.push(syn::Error::new_spanned(
                        &assign.left,
                        "an ask key is a name or a string, fixed when the tool is compiled: \
                         `ask!(name = ..)` or `ask!(\"user-name\" = ..)`. An ask in a loop asks \
                         its key again on each pass, and a client answers each round anew",
                    ));
                    *assign.right
                }
                (_, question) => question,
            };
            questions.push((key, question));
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(Self {
            questions,
            mistakes,
        })
    }
}
