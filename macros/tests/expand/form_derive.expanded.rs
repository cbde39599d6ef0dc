//! `#[derive(Form)]` on a form and on a choice.
#[serde(rename_all = "lowercase")]
enum Plan {
    /// For one person
    Free,
    /// For a team
    Pro,
}
#[doc(hidden)]
#[allow(
    non_upper_case_globals,
    unused_attributes,
    unused_qualifications,
    clippy::absolute_paths,
)]
const _: () = {
    #[allow(unused_extern_crates, clippy::useless_attribute)]
    extern crate serde as _serde;
    #[automatically_derived]
    impl<'de> _serde::Deserialize<'de> for Plan {
        fn deserialize<__D>(
            __deserializer: __D,
        ) -> _serde::__private229::Result<Self, __D::Error>
        where
            __D: _serde::Deserializer<'de>,
        {
            #[allow(non_camel_case_types)]
            #[doc(hidden)]
            enum __Field {
                __field0,
                __field1,
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
                    _serde::__private229::Formatter::write_str(
                        __formatter,
                        "variant identifier",
                    )
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
                        1u64 => _serde::__private229::Ok(__Field::__field1),
                        _ => {
                            _serde::__private229::Err(
                                _serde::de::Error::invalid_value(
                                    _serde::de::Unexpected::Unsigned(__value),
                                    &"variant index 0 <= i < 2",
                                ),
                            )
                        }
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
                        "free" => _serde::__private229::Ok(__Field::__field0),
                        "pro" => _serde::__private229::Ok(__Field::__field1),
                        _ => {
                            _serde::__private229::Err(
                                _serde::de::Error::unknown_variant(__value, VARIANTS),
                            )
                        }
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
                        b"free" => _serde::__private229::Ok(__Field::__field0),
                        b"pro" => _serde::__private229::Ok(__Field::__field1),
                        _ => {
                            let __value = &_serde::__private229::from_utf8_lossy(
                                __value,
                            );
                            _serde::__private229::Err(
                                _serde::de::Error::unknown_variant(__value, VARIANTS),
                            )
                        }
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
                    _serde::Deserializer::deserialize_identifier(
                        __deserializer,
                        __FieldVisitor,
                    )
                }
            }
            #[doc(hidden)]
            struct __Visitor<'de> {
                marker: _serde::__private229::PhantomData<Plan>,
                lifetime: _serde::__private229::PhantomData<&'de ()>,
            }
            #[automatically_derived]
            impl<'de> _serde::de::Visitor<'de> for __Visitor<'de> {
                type Value = Plan;
                fn expecting(
                    &self,
                    __formatter: &mut _serde::__private229::Formatter,
                ) -> _serde::__private229::fmt::Result {
                    _serde::__private229::Formatter::write_str(__formatter, "enum Plan")
                }
                fn visit_enum<__A>(
                    self,
                    __data: __A,
                ) -> _serde::__private229::Result<Self::Value, __A::Error>
                where
                    __A: _serde::de::EnumAccess<'de>,
                {
                    match _serde::de::EnumAccess::variant(__data) {
                        _serde::__private229::Ok((__Field::__field0, __variant)) => {
                            _serde::de::VariantAccess::unit_variant(__variant)?;
                            _serde::__private229::Ok(Plan::Free)
                        }
                        _serde::__private229::Ok((__Field::__field1, __variant)) => {
                            _serde::de::VariantAccess::unit_variant(__variant)?;
                            _serde::__private229::Ok(Plan::Pro)
                        }
                        _serde::__private229::Err(__err) => {
                            _serde::__private229::Err(__err)
                        }
                    }
                }
            }
            #[doc(hidden)]
            const VARIANTS: &'static [&'static str] = &["free", "pro"];
            _serde::Deserializer::deserialize_enum(
                __deserializer,
                "Plan",
                VARIANTS,
                __Visitor {
                    marker: _serde::__private229::PhantomData::<Plan>,
                    lifetime: _serde::__private229::PhantomData,
                },
            )
        }
    }
};
const _: () = {
    #[automatically_derived]
    #[allow(unused_braces, unused_qualifications)]
    impl schemars::JsonSchema for Plan {
        fn schema_name() -> schemars::_private::alloc::borrow::Cow<'static, str> {
            schemars::_private::alloc::borrow::Cow::Borrowed("Plan")
        }
        fn schema_id() -> schemars::_private::alloc::borrow::Cow<'static, str> {
            schemars::_private::alloc::borrow::Cow::Borrowed("form_derive::Plan")
        }
        fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
            {
                {
                    let mut map = schemars::_private::serde_json::Map::new();
                    map.insert(
                        "oneOf".into(),
                        schemars::_private::serde_json::Value::Array({
                            let mut enum_values = schemars::_private::alloc::vec::Vec::new();
                            enum_values
                                .push(
                                    {
                                        let mut schema = schemars::_private::new_unit_enum_variant(
                                            "free",
                                        );
                                        schemars::_private::insert_metadata_property_if_nonempty(
                                            &mut schema,
                                            "title",
                                            {
                                                const TITLE: &str = schemars::_private::get_title_and_description(
                                                        "For one person",
                                                    )
                                                    .0;
                                                TITLE
                                            },
                                        );
                                        schemars::_private::insert_metadata_property_if_nonempty(
                                            &mut schema,
                                            "description",
                                            {
                                                const DESCRIPTION: &str = schemars::_private::get_title_and_description(
                                                        "For one person",
                                                    )
                                                    .1;
                                                DESCRIPTION
                                            },
                                        );
                                        schema
                                    }
                                        .to_value(),
                                );
                            enum_values
                                .push(
                                    {
                                        let mut schema = schemars::_private::new_unit_enum_variant(
                                            "pro",
                                        );
                                        schemars::_private::insert_metadata_property_if_nonempty(
                                            &mut schema,
                                            "title",
                                            {
                                                const TITLE: &str = schemars::_private::get_title_and_description(
                                                        "For a team",
                                                    )
                                                    .0;
                                                TITLE
                                            },
                                        );
                                        schemars::_private::insert_metadata_property_if_nonempty(
                                            &mut schema,
                                            "description",
                                            {
                                                const DESCRIPTION: &str = schemars::_private::get_title_and_description(
                                                        "For a team",
                                                    )
                                                    .1;
                                                DESCRIPTION
                                            },
                                        );
                                        schema
                                    }
                                        .to_value(),
                                );
                            enum_values
                        }),
                    );
                    schemars::Schema::from(map)
                }
            }
        }
        fn inline_schema() -> bool {
            false
        }
    }
};
impl ::mrtr::FormField for Plan {}
impl ::mrtr::FormChoice for Plan {}
struct Signup {
    /// What should we call you?
    name: String,
    plan: Plan,
    newsletter: Option<bool>,
}
#[doc(hidden)]
#[allow(
    non_upper_case_globals,
    unused_attributes,
    unused_qualifications,
    clippy::absolute_paths,
)]
const _: () = {
    #[allow(unused_extern_crates, clippy::useless_attribute)]
    extern crate serde as _serde;
    #[automatically_derived]
    impl<'de> _serde::Deserialize<'de> for Signup {
        fn deserialize<__D>(
            __deserializer: __D,
        ) -> _serde::__private229::Result<Self, __D::Error>
        where
            __D: _serde::Deserializer<'de>,
        {
            #[allow(non_camel_case_types)]
            #[doc(hidden)]
            enum __Field {
                __field0,
                __field1,
                __field2,
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
                    _serde::__private229::Formatter::write_str(
                        __formatter,
                        "field identifier",
                    )
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
                        1u64 => _serde::__private229::Ok(__Field::__field1),
                        2u64 => _serde::__private229::Ok(__Field::__field2),
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
                        "name" => _serde::__private229::Ok(__Field::__field0),
                        "plan" => _serde::__private229::Ok(__Field::__field1),
                        "newsletter" => _serde::__private229::Ok(__Field::__field2),
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
                        b"name" => _serde::__private229::Ok(__Field::__field0),
                        b"plan" => _serde::__private229::Ok(__Field::__field1),
                        b"newsletter" => _serde::__private229::Ok(__Field::__field2),
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
                    _serde::Deserializer::deserialize_identifier(
                        __deserializer,
                        __FieldVisitor,
                    )
                }
            }
            #[doc(hidden)]
            struct __Visitor<'de> {
                marker: _serde::__private229::PhantomData<Signup>,
                lifetime: _serde::__private229::PhantomData<&'de ()>,
            }
            #[automatically_derived]
            impl<'de> _serde::de::Visitor<'de> for __Visitor<'de> {
                type Value = Signup;
                fn expecting(
                    &self,
                    __formatter: &mut _serde::__private229::Formatter,
                ) -> _serde::__private229::fmt::Result {
                    _serde::__private229::Formatter::write_str(
                        __formatter,
                        "struct Signup",
                    )
                }
                #[inline]
                fn visit_seq<__A>(
                    self,
                    mut __seq: __A,
                ) -> _serde::__private229::Result<Self::Value, __A::Error>
                where
                    __A: _serde::de::SeqAccess<'de>,
                {
                    let __field0 = match _serde::de::SeqAccess::next_element::<
                        String,
                    >(&mut __seq)? {
                        _serde::__private229::Some(__value) => __value,
                        _serde::__private229::None => {
                            return _serde::__private229::Err(
                                _serde::de::Error::invalid_length(
                                    0usize,
                                    &"struct Signup with 3 elements",
                                ),
                            );
                        }
                    };
                    let __field1 = match _serde::de::SeqAccess::next_element::<
                        Plan,
                    >(&mut __seq)? {
                        _serde::__private229::Some(__value) => __value,
                        _serde::__private229::None => {
                            return _serde::__private229::Err(
                                _serde::de::Error::invalid_length(
                                    1usize,
                                    &"struct Signup with 3 elements",
                                ),
                            );
                        }
                    };
                    let __field2 = match _serde::de::SeqAccess::next_element::<
                        Option<bool>,
                    >(&mut __seq)? {
                        _serde::__private229::Some(__value) => __value,
                        _serde::__private229::None => {
                            return _serde::__private229::Err(
                                _serde::de::Error::invalid_length(
                                    2usize,
                                    &"struct Signup with 3 elements",
                                ),
                            );
                        }
                    };
                    _serde::__private229::Ok(Signup {
                        name: __field0,
                        plan: __field1,
                        newsletter: __field2,
                    })
                }
                #[inline]
                fn visit_map<__A>(
                    self,
                    mut __map: __A,
                ) -> _serde::__private229::Result<Self::Value, __A::Error>
                where
                    __A: _serde::de::MapAccess<'de>,
                {
                    let mut __field0: _serde::__private229::Option<String> = _serde::__private229::None;
                    let mut __field1: _serde::__private229::Option<Plan> = _serde::__private229::None;
                    let mut __field2: _serde::__private229::Option<Option<bool>> = _serde::__private229::None;
                    while let _serde::__private229::Some(__key) = _serde::de::MapAccess::next_key::<
                        __Field,
                    >(&mut __map)? {
                        match __key {
                            __Field::__field0 => {
                                if _serde::__private229::Option::is_some(&__field0) {
                                    return _serde::__private229::Err(
                                        <__A::Error as _serde::de::Error>::duplicate_field("name"),
                                    );
                                }
                                __field0 = _serde::__private229::Some(
                                    _serde::de::MapAccess::next_value::<String>(&mut __map)?,
                                );
                            }
                            __Field::__field1 => {
                                if _serde::__private229::Option::is_some(&__field1) {
                                    return _serde::__private229::Err(
                                        <__A::Error as _serde::de::Error>::duplicate_field("plan"),
                                    );
                                }
                                __field1 = _serde::__private229::Some(
                                    _serde::de::MapAccess::next_value::<Plan>(&mut __map)?,
                                );
                            }
                            __Field::__field2 => {
                                if _serde::__private229::Option::is_some(&__field2) {
                                    return _serde::__private229::Err(
                                        <__A::Error as _serde::de::Error>::duplicate_field(
                                            "newsletter",
                                        ),
                                    );
                                }
                                __field2 = _serde::__private229::Some(
                                    _serde::de::MapAccess::next_value::<
                                        Option<bool>,
                                    >(&mut __map)?,
                                );
                            }
                            _ => {
                                let _ = _serde::de::MapAccess::next_value::<
                                    _serde::de::IgnoredAny,
                                >(&mut __map)?;
                            }
                        }
                    }
                    let __field0 = match __field0 {
                        _serde::__private229::Some(__field0) => __field0,
                        _serde::__private229::None => {
                            _serde::__private229::de::missing_field("name")?
                        }
                    };
                    let __field1 = match __field1 {
                        _serde::__private229::Some(__field1) => __field1,
                        _serde::__private229::None => {
                            _serde::__private229::de::missing_field("plan")?
                        }
                    };
                    let __field2 = match __field2 {
                        _serde::__private229::Some(__field2) => __field2,
                        _serde::__private229::None => {
                            _serde::__private229::de::missing_field("newsletter")?
                        }
                    };
                    _serde::__private229::Ok(Signup {
                        name: __field0,
                        plan: __field1,
                        newsletter: __field2,
                    })
                }
            }
            #[doc(hidden)]
            const FIELDS: &'static [&'static str] = &["name", "plan", "newsletter"];
            _serde::Deserializer::deserialize_struct(
                __deserializer,
                "Signup",
                FIELDS,
                __Visitor {
                    marker: _serde::__private229::PhantomData::<Signup>,
                    lifetime: _serde::__private229::PhantomData,
                },
            )
        }
    }
};
const _: () = {
    #[automatically_derived]
    #[allow(unused_braces, unused_qualifications)]
    impl schemars::JsonSchema for Signup {
        fn schema_name() -> schemars::_private::alloc::borrow::Cow<'static, str> {
            schemars::_private::alloc::borrow::Cow::Borrowed("Signup")
        }
        fn schema_id() -> schemars::_private::alloc::borrow::Cow<'static, str> {
            schemars::_private::alloc::borrow::Cow::Borrowed("form_derive::Signup")
        }
        fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
            {
                let mut schema = <::schemars::Schema as ::core::convert::TryFrom<
                    _,
                >>::try_from(
                        ::serde_json::Value::Object({
                            let mut object = ::serde_json::Map::new();
                            let _ = object
                                .insert(
                                    ("type").into(),
                                    ::serde_json::to_value(&"object").unwrap(),
                                );
                            object
                        }),
                    )
                    .unwrap();
                {
                    schemars::_private::insert_object_property(
                        &mut schema,
                        "name",
                        generator.contract().is_deserialize()
                            && <String as schemars::JsonSchema>::_schemars_private_is_option(),
                        {
                            let mut schema = generator.subschema_for::<String>();
                            schemars::_private::insert_metadata_property_if_nonempty(
                                &mut schema,
                                "title",
                                {
                                    const TITLE: &str = schemars::_private::get_title_and_description(
                                            "What should we call you?",
                                        )
                                        .0;
                                    TITLE
                                },
                            );
                            schemars::_private::insert_metadata_property_if_nonempty(
                                &mut schema,
                                "description",
                                {
                                    const DESCRIPTION: &str = schemars::_private::get_title_and_description(
                                            "What should we call you?",
                                        )
                                        .1;
                                    DESCRIPTION
                                },
                            );
                            schema
                        },
                    );
                }
                {
                    schemars::_private::insert_object_property(
                        &mut schema,
                        "plan",
                        generator.contract().is_deserialize()
                            && <Plan as schemars::JsonSchema>::_schemars_private_is_option(),
                        { generator.subschema_for::<Plan>() },
                    );
                }
                {
                    schemars::_private::insert_object_property(
                        &mut schema,
                        "newsletter",
                        generator.contract().is_deserialize()
                            && <Option<
                                bool,
                            > as schemars::JsonSchema>::_schemars_private_is_option(),
                        { generator.subschema_for::<Option<bool>>() },
                    );
                }
                schema
            }
        }
        fn inline_schema() -> bool {
            false
        }
    }
};
impl ::mrtr::Form for Signup {}
const _: () = {
    ::mrtr::__private::assert_form_field::<String>();
    ::mrtr::__private::assert_form_field::<Plan>();
    ::mrtr::__private::assert_form_field::<Option<bool>>();
};
fn main() {}
