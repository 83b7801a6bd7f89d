//! Every key a variant table may hold is documented in `tables/README.md`, and every key
//! documented there is still accepted. The accepted keys are not listed by hand: they are
//! read from the serde structs behind `VariantFile` by a deserializer that, instead of
//! parsing anything, records the field list serde hands it for each struct and then walks
//! into every field with a dummy value.

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess};
use serde::Deserialize;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;
use tenfold::variant::VariantFile;
use tenfold::Variant;

/// Keys `Variant::from_toml` reads itself before serde sees the table.
const READ_BEFORE_SERDE: &[&str] = &["extends"];

#[derive(Debug)]
struct TraceError(String);

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TraceError {}

impl de::Error for TraceError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        TraceError(msg.to_string())
    }
}

/// Dotted paths of every struct field met so far.
type Keys = RefCell<BTreeSet<String>>;

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A deserializer for the value at `path`: structs report their fields, containers
/// hold one traced element, scalars are dummies.
struct Tracer<'k> {
    path: String,
    keys: &'k Keys,
}

impl<'k> Tracer<'k> {
    fn at(&self, key: &str) -> Tracer<'k> {
        Tracer {
            path: join(&self.path, key),
            keys: self.keys,
        }
    }

    fn refuse(&self, what: &str) -> TraceError {
        TraceError(format!(
            "{}: cannot trace {what}; teach tests/table_keys.rs this shape",
            self.path
        ))
    }
}

/// Each field of a struct once, its value traced one level down.
struct Fields<'k> {
    parent: Tracer<'k>,
    fields: &'static [&'static str],
    next: usize,
}

impl<'de> MapAccess<'de> for Fields<'_> {
    type Error = TraceError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, TraceError> {
        match self.fields.get(self.next) {
            Some(&f) => seed.deserialize(f.into_deserializer()).map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, TraceError> {
        let field = self.fields[self.next];
        self.next += 1;
        seed.deserialize(self.parent.at(field))
    }
}

/// A map with free keys (`only_on`): one entry, its key `*`, its value traced below it.
struct OneEntry<'k> {
    parent: Tracer<'k>,
    done: bool,
}

impl<'de> MapAccess<'de> for OneEntry<'_> {
    type Error = TraceError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, TraceError> {
        if self.done {
            return Ok(None);
        }
        seed.deserialize("*".into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, TraceError> {
        self.done = true;
        seed.deserialize(self.parent.at("*"))
    }
}

/// A list or tuple: `left` elements, each traced at the list's own path (so the keys of
/// a `[[piece]]` entry read `piece.letter`).
struct Elements<'k> {
    parent: Tracer<'k>,
    left: usize,
}

impl<'de> SeqAccess<'de> for Elements<'_> {
    type Error = TraceError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, TraceError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let here = Tracer {
            path: self.parent.path.clone(),
            keys: self.parent.keys,
        };
        seed.deserialize(here).map(Some)
    }
}

macro_rules! dummy {
    ($($method:ident => $visit:ident($value:expr);)*) => {
        $(fn $method<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
            visitor.$visit($value)
        })*
    };
}

impl<'de> Deserializer<'de> for Tracer<'_> {
    type Error = TraceError;

    dummy! {
        deserialize_bool => visit_bool(false);
        deserialize_i8 => visit_i64(0);
        deserialize_i16 => visit_i64(0);
        deserialize_i32 => visit_i64(0);
        deserialize_i64 => visit_i64(0);
        deserialize_u8 => visit_u64(0);
        deserialize_u16 => visit_u64(0);
        deserialize_u32 => visit_u64(0);
        deserialize_u64 => visit_u64(0);
        deserialize_f32 => visit_f64(0.0);
        deserialize_f64 => visit_f64(0.0);
        deserialize_char => visit_char('A');
        deserialize_str => visit_str("");
        deserialize_string => visit_str("");
        deserialize_bytes => visit_bytes(&[]);
        deserialize_byte_buf => visit_bytes(&[]);
        deserialize_identifier => visit_str("");
    }

    fn deserialize_any<V: de::Visitor<'de>>(self, _: V) -> Result<V::Value, TraceError> {
        // A self-describing shape (untagged enum, `flatten`) has no field list to read.
        Err(self.refuse("a value of any shape"))
    }

    fn deserialize_unit<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: de::Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        visitor.visit_unit()
    }

    fn deserialize_ignored_any<V: de::Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        visitor.visit_unit()
    }

    fn deserialize_option<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: de::Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        visitor.visit_seq(Elements {
            parent: self,
            left: 1,
        })
    }

    fn deserialize_tuple<V: de::Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        visitor.visit_seq(Elements {
            parent: self,
            left: len,
        })
    }

    fn deserialize_tuple_struct<V: de::Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        visitor.visit_map(OneEntry {
            parent: self,
            done: false,
        })
    }

    fn deserialize_struct<V: de::Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        self.keys
            .borrow_mut()
            .extend(fields.iter().map(|f| join(&self.path, f)));
        visitor.visit_map(Fields {
            parent: self,
            fields,
            next: 0,
        })
    }

    fn deserialize_enum<V: de::Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, TraceError> {
        Err(self.refuse("an enum"))
    }
}

/// Every key the parser accepts, as dotted paths (`piece.promotion.only_on`).
fn accepted_keys() -> BTreeSet<String> {
    let keys = Keys::default();
    VariantFile::deserialize(Tracer {
        path: String::new(),
        keys: &keys,
    })
    .unwrap_or_else(|e| panic!("tracing VariantFile: {e}"));
    let mut keys = keys.into_inner();
    keys.extend(READ_BEFORE_SERDE.iter().map(|k| k.to_string()));
    keys
}

/// The keys `tables/README.md` documents: the first cell of a table row, when it is one
/// code span; a TOML header form (`[castling]`, `[[piece]]`) names the table itself.
fn documented_keys() -> Vec<String> {
    include_str!("../tables/README.md")
        .lines()
        .filter_map(|line| {
            let cell = line.strip_prefix('|')?.split('|').next()?.trim();
            let key = cell.strip_prefix('`')?.strip_suffix('`')?;
            Some(key.trim_matches(['[', ']']).to_string())
        })
        .collect()
}

#[test]
fn the_trace_reaches_nested_tables_lists_and_maps() {
    let keys = accepted_keys();
    for key in [
        "name",
        "piece",
        "piece.letter",
        "piece.promotion.only_on",
        "piece.shot.with_move",
        "castling.kingside.king_to",
        "zone_castling.side.rook_zone",
        "search.bench",
    ] {
        assert!(keys.contains(key), "{key} not traced: {keys:?}");
    }
}

#[test]
fn keys_read_before_serde_are_still_read() {
    let v = Variant::from_toml("extends = \"chess\"\nname = \"x\"\n", "x.toml").unwrap();
    assert_eq!(v.name, "x");
}

#[test]
fn every_accepted_key_is_documented_and_every_documented_key_accepted() {
    let accepted = accepted_keys();
    let rows = documented_keys();
    let documented: BTreeSet<String> = rows.iter().cloned().collect();
    let twice: Vec<&String> = documented
        .iter()
        .filter(|k| rows.iter().filter(|r| r == k).count() > 1)
        .collect();
    let undocumented: Vec<&String> = accepted.difference(&documented).collect();
    let stale: Vec<&String> = documented.difference(&accepted).collect();
    assert!(
        undocumented.is_empty() && stale.is_empty() && twice.is_empty(),
        "tables/README.md: undocumented keys {undocumented:?}, documented but not accepted \
         {stale:?}, documented twice {twice:?}"
    );
}
