#![feature(prelude_import)]
//! A tool that asks the user, then the model, then the client's roots. (Forms and their derive
//! are in `form_derive.rs`, so that this expansion is the tool's alone.)
extern crate std;
#[prelude_import]
use std::prelude::rust_2024::*;
use mrtr::{UrlElicited, ask, elicit_url, mrtr_tool, roots, sample};
use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};

struct Args {
    team: String,
}
#[doc(hidden)]
#[allow(
    non_upper_case_globals,
    unused_attributes,
    unused_qualifications,
    clippy::absolute_paths
)]
const _: () = {
    #[allow(unused_extern_crates, clippy::useless_attribute)]
    extern crate serde as _serde;;
    #[automatically_derived]
    impl<'de> _serde::Deserialize<'de> for Args {
        fn deserialize<__D>(__deserializer: __D) -> _serde::__private229::Result<Self, __D::Error>
        where
            __D: _serde::Deserializer<'de>,
        {
            #[allow(non_camel_case_types)]
            #[doc(hidden)]
            enum __Field {
                __field0,
                __ignore,
            }
            #[doc(hidden)]
            struct __FieldVisitor;
            #[automatically_derived]
            impl<'de> _serde::de::Visitor<'de> for __FieldVisitor {
                type Value = __Field;
                fn expecting(
                    &self,
                    __formatter: &mut _serde::__private229::Formatter,
                ) -> _serde::__private229::fmt::Result {
                    _serde::__private229::Formatter::write_str(__formatter, "field identifier")
                }
                fn visit_u64<__E>(
                    self,
                    __value: u64,
                ) -> _serde::__private229::Result<Self::Value, __E>
                where
                    __E: _serde::de::Error,
                {
                    match __value {
                        0u64 => _serde::__private229::Ok(__Field::__field0),
                        _ => _serde::__private229::Ok(__Field::__ignore),
                    }
                }
                fn visit_str<__E>(
                    self,
                    __value: &str,
                ) -> _serde::__private229::Result<Self::Value, __E>
                where
                    __E: _serde::de::Error,
                {
                    match __value {
                        "team" => _serde::__private229::Ok(__Field::__field0),
                        _ => _serde::__private229::Ok(__Field::__ignore),
                    }
                }
                fn visit_bytes<__E>(
                    self,
                    __value: &[u8],
                ) -> _serde::__private229::Result<Self::Value, __E>
                where
                    __E: _serde::de::Error,
                {
                    match __value {
                        b"team" => _serde::__private229::Ok(__Field::__field0),
                        _ => _serde::__private229::Ok(__Field::__ignore),
                    }
                }
            }
            #[automatically_derived]
            impl<'de> _serde::Deserialize<'de> for __Field {
                #[inline]
                fn deserialize<__D>(
                    __deserializer: __D,
                ) -> _serde::__private229::Result<Self, __D::Error>
                where
                    __D: _serde::Deserializer<'de>,
                {
                    _serde::Deserializer::deserialize_identifier(__deserializer, __FieldVisitor)
                }
            }
            #[doc(hidden)]
            struct __Visitor<'de> {
                marker: _serde::__private229::PhantomData<Args>,
                lifetime: _serde::__private229::PhantomData<&'de ()>,
            }
            #[automatically_derived]
            impl<'de> _serde::de::Visitor<'de> for __Visitor<'de> {
                type Value = Args;
                fn expecting(
                    &self,
                    __formatter: &mut _serde::__private229::Formatter,
                ) -> _serde::__private229::fmt::Result {
                    _serde::__private229::Formatter::write_str(__formatter, "struct Args")
                }
                #[inline]
                fn visit_seq<__A>(
                    self,
                    mut __seq: __A,
                ) -> _serde::__private229::Result<Self::Value, __A::Error>
                where
                    __A: _serde::de::SeqAccess<'de>,
                {
                    let __field0 = match _serde::de::SeqAccess::next_element::<String>(&mut __seq)?
                    {
                        _serde::__private229::Some(__value) => __value,
                        _serde::__private229::None => {
                            return _serde::__private229::Err(_serde::de::Error::invalid_length(
                                0usize,
                                &"struct Args with 1 element",
                            ))
                        }
                    };
                    _serde::__private229::Ok(Args { team: __field0 })
                }
                #[inline]
                fn visit_map<__A>(
                    self,
                    mut __map: __A,
                ) -> _serde::__private229::Result<Self::Value, __A::Error>
                where
                    __A: _serde::de::MapAccess<'de>,
                {
                    let mut __field0: _serde::__private229::Option<String> =
                        _serde::__private229::None;
                    while let _serde::__private229::Some(__key) =
                        _serde::de::MapAccess::next_key::<__Field>(&mut __map)?
                    {
                        match __key {
                            __Field::__field0 => {
                                if _serde::__private229::Option::is_some(&__field0) {
                                    return _serde::__private229::Err(
                                        <__A::Error as _serde::de::Error>::duplicate_field("team"),
                                    );
                                }
                                __field0 = _serde::__private229::Some(
                                    _serde::de::MapAccess::next_value::<String>(&mut __map)?,
                                );
                            }
                            _ => {
                                let _ = _serde::de::MapAccess::next_value::<_serde::de::IgnoredAny>(
                                    &mut __map,
                                )?;
                            }
                        }
                    }
                    let __field0 = match __field0 {
                        _serde::__private229::Some(__field0) => __field0,
                        _serde::__private229::None => {
                            _serde::__private229::de::missing_field("team")?
                        }
                    };
                    _serde::__private229::Ok(Args { team: __field0 })
                }
            }
            #[doc(hidden)]
            const FIELDS: &'static [&'static str] = &["team"];
            _serde::Deserializer::deserialize_struct(
                __deserializer,
                "Args",
                FIELDS,
                __Visitor {
                    marker: _serde::__private229::PhantomData::<Args>,
                    lifetime: _serde::__private229::PhantomData,
                },
            )
        }
    }
};
const _: () = {
    #[automatically_derived]
    #[allow(unused_braces, unused_qualifications)]
    impl schemars::JsonSchema for Args {
        fn schema_name() -> schemars::_private::alloc::borrow::Cow<'static, str> {
            schemars::_private::alloc::borrow::Cow::Borrowed("Args")
        }
        fn schema_id() -> schemars::_private::alloc::borrow::Cow<'static, str> {
            schemars::_private::alloc::borrow::Cow::Borrowed("asks_in_sequence::Args")
        }
        fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
            {
                let mut schema = <::schemars::Schema as ::core::convert::TryFrom<_>>::try_from(
                    ::serde_json::Value::Object({
                        let mut object = ::serde_json::Map::new();
                        let _ = object
                            .insert(("type").into(), ::serde_json::to_value(&"object").unwrap());
                        object
                    }),
                )
                .unwrap();
                {
                    schemars::_private::insert_object_property(
                        &mut schema,
                        "team",
                        generator.contract().is_deserialize()
                            && <String as schemars::JsonSchema>::_schemars_private_is_option(),
                        { generator.subschema_for::<String>() },
                    );
                }
                schema
            }
        }
        fn inline_schema() -> bool {
            false
        }
    };
};
struct Wizard;
impl Wizard {
    /// Where [`Self::welcome`] asks the client for input, and the control flow between its `ask!` points, as a Mermaid flowchart. Generated by `#[mrtr_tool]`.
    ///
    ///```mermaid
    ///flowchart TD
    ///    n0(["welcome"])
    ///    n1[/"ask terms"/]
    ///    n0 --> n1
    ///    n2{"match ask!(elicit_url(#quot;Accept the terms#quot;, #quot;..."}
    ///    n1 --> n2
    ///    n3[/"ask greeting"/]
    ///    n2 -->|"UrlElicited::Accept"| n3
    ///    n4[/"ask places"/]
    ///    n3 --> n4
    ///    n5([done])
    ///    n4 --> n5
    ///    n2 -->|"UrlElicited::Decline(refused) #124; UrlEl..."| n5
    ///```
    pub const WELCOME_FLOW: &'static str =
        "flowchart TD\n    n0([\"welcome\"])\n    n1[/\"ask terms\"/]\n    n0 --> n1\n    n2{\"match ask!(elicit_url(#quot;Accept the terms#quot;, #quot;...\"}\n    n1 --> n2\n    n3[/\"ask greeting\"/]\n    n2 -->|\"UrlElicited::Accept\"| n3\n    n4[/\"ask places\"/]\n    n3 --> n4\n    n5([done])\n    n4 --> n5\n    n2 -->|\"UrlElicited::Decline(refused) #124; UrlEl...\"| n5\n";
    ///Generated tool metadata function for welcome
    pub fn welcome_tool_attr() -> rmcp::model::Tool {
        rmcp::model::Tool::new_with_raw(
            "welcome",
            Some("Welcome someone to a team".into()),
            rmcp::handler::server::common::schema_for_input::<Parameters<Args>>().unwrap_or_else(
                |e| {
                    ::core::panicking::panic_fmt(format_args!(
                        "Invalid input schema for `{0}`: {1}",
                        std::any::type_name::<Parameters<Args>>(),
                        e
                    ));
                },
            ),
        )
    }
    fn welcome(
        &self,
        __mrtr_round: ::mrtr::__private::Round,
        Parameters(args): Parameters<Args>,
    ) -> ::std::pin::Pin<
        Box<
            dyn ::std::future::Future<Output = ::mrtr::Outcome<Result<String, String>>> + Send + '_,
        >,
    > {
        Box::pin(async move {
            const __MRTR_LAYOUT: ::mrtr::__private::Layout = ::mrtr::__private::Layout {
                fingerprint: 1691983179669632009u64,
                asks: 3u32,
                single_use: true,
                task: ::mrtr::__private::TaskSupport::Never,
                task_start_marked: false,
            };
            let __engine = ::mrtr::__private::engine_of(self);
            let __mrtr =
                match ::mrtr::__private::Machine::start(&__MRTR_LAYOUT, __mrtr_round, __engine) {
                    ::core::result::Result::Ok(machine) => machine,
                    ::core::result::Result::Err(__error) => {
                        return ::mrtr::Outcome::Failed(__error)
                    }
                };
            let __mrtr = &__mrtr;
            let __mrtr_body = async move {
                let __returned: Result<String, String> = {
                    let team = if __mrtr.passed(0u32) {
                        __mrtr.restore().await
                    } else {
                        args.team.trim().to_owned()
                    };
                    if !__mrtr.passed(1u32) {
                        match __mrtr
                            .ask(1u32, &["terms"], |__saved| {
                                __saved.save(&team);
                                elicit_url("Accept the terms", "https://example.com/terms")
                            })
                            .await
                        {
                            UrlElicited::Accept => {}
                            UrlElicited::Decline(refused) | UrlElicited::Cancel(refused) => {
                                return Err(refused.to_string());
                            }
                        }
                    }
                    let greeting = if __mrtr.passed(2u32) {
                        __mrtr.restore().await
                    } else {
                        __mrtr
                            .ask(2u32, &["greeting"], |__saved| {
                                __saved.save(&team);
                                sample("Write a one-line welcome").max_tokens(40)
                            })
                            .await
                            .text
                    };
                    let places = __mrtr
                        .ask(3u32, &["places"], |__saved| {
                            __saved.save(&team);
                            __saved.save(&greeting);
                            roots()
                        })
                        .await
                        .len();
                    Ok([team, greeting, places.to_string()].join(" "))
                };
                __returned
            };
            let __mrtr_body = {
                super let mut pinned = __mrtr_body;
                unsafe { ::core::pin::Pin::new_unchecked(&mut pinned) }
            };
            let __mrtr_record = <::mrtr::__private::ToolCall as ::mrtr::__private::Wire<_>>::record;
            __mrtr.run(__mrtr_record, __mrtr_body).await
        })
    }
    fn tool_router() -> rmcp::handler::server::router::tool::ToolRouter<Self> {
        rmcp::handler::server::router::tool::ToolRouter::<Self>::new()
            .with_route((Self::welcome_tool_attr(), Self::welcome))
    }
}
impl mrtr::MrtrServer for Wizard {}
fn main() {}
