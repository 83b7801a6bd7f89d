//! The variants Tenfold knows by name: the built-in tables embedded in the binary and the
//! files a user loaded. The registry resolves `extends` (a table may extend any known
//! game; loops are refused), compiles each table once, and checks its start FEN as a
//! real position after compiling.

use crate::position::Position;
use crate::variant::table::{merge_tables, toml_message};
use crate::variant::{Variant, VariantError, VariantFile};
use ahash::AHashMap;
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

/// Name and TOML text of every built-in table, in listing order.
pub const TABLES: &[(&str, &str)] = &[
    ("chess", include_str!("../tables/chess.toml")),
    ("capablanca", include_str!("../tables/capablanca.toml")),
    ("embassy", include_str!("../tables/embassy.toml")),
    ("janus", include_str!("../tables/janus.toml")),
    ("shako", include_str!("../tables/shako.toml")),
    ("grand", include_str!("../tables/grand.toml")),
    ("archmage", include_str!("../tables/archmage.toml")),
    ("wildeurasian", include_str!("../tables/wildeurasian.toml")),
    ("augsburg", include_str!("../tables/augsburg.toml")),
    (
        "combined-arms",
        include_str!("../tables/combined-arms.toml"),
    ),
];

/// Why a variant could not be had.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// No built-in or loaded variant has that name.
    #[error("unknown variant {0:?} (known: {1})")]
    Unknown(String, String),
    /// No table has that name exactly, and it fits several but for case.
    #[error("variant {0:?} fits more than one table but for case ({1}); give one exactly")]
    Ambiguous(String, String),
    /// The table is broken.
    #[error(transparent)]
    Table(#[from] VariantError),
    /// The file cannot be read.
    #[error("cannot read variant file {0}: {1}")]
    Io(String, String),
}

/// One known table: its resolved TOML (no `extends` left) and, once asked for, its
/// compiled variant.
struct Entry {
    /// Parsed when first needed: a built-in's only when a table extends it (parsing all
    /// ten at every start-up was most of a short command's time, some 10 ms).
    table: OnceLock<toml::Table>,
    /// A built-in's text, parsed into `table` on demand.
    text: &'static str,
    origin: String,
    compiled: Option<Arc<Variant>>,
}

/// Known tables by name. A loaded file shadows a table of the same name (which it may
/// extend); each name keeps its layers, newest last, and reloading a file replaces its
/// own layer instead of stacking onto it.
struct Registry {
    entries: AHashMap<String, Vec<Entry>>,
    /// Names of loaded (not built-in) tables, in load order, for listings.
    loaded: Vec<String>,
}

static REGISTRY: LazyLock<Mutex<Registry>> = LazyLock::new(|| {
    let mut entries = AHashMap::new();
    for (name, text) in TABLES {
        entries.insert(
            name.to_string(),
            vec![Entry {
                table: OnceLock::new(),
                text,
                origin: format!("tables/{name}.toml"),
                compiled: None,
            }],
        );
    }
    Mutex::new(Registry {
        entries,
        loaded: Vec::new(),
    })
});

impl Entry {
    /// The resolved TOML (a built-in extends nothing; a broken one is reported when it
    /// is compiled, against its own text, so here it is only empty).
    fn table(&self) -> &toml::Table {
        self.table
            .get_or_init(|| toml::from_str(self.text).unwrap_or_default())
    }
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Names of the built-in variants.
pub fn names() -> Vec<&'static str> {
    TABLES.iter().map(|(n, _)| *n).collect()
}

/// Names of every known variant: built-ins, then loaded files.
pub fn known() -> Vec<String> {
    let r = registry();
    let mut out: Vec<String> = names().iter().map(|s| s.to_string()).collect();
    out.extend(
        r.loaded
            .iter()
            .filter(|n| !names().contains(&n.as_str()))
            .cloned(),
    );
    out
}

/// A built-in or previously loaded variant by name (compiled once, then shared). A name
/// no table has exactly is taken in any case when it fits one table alone (`CHESS`,
/// `Grand`), as UCI's combo values and PGN's Variant tag are read; one that fits several
/// is refused, naming them.
pub fn get(name: &str) -> Result<Arc<Variant>, LoadError> {
    let mut r = registry();
    let folded;
    let name = if r.entries.contains_key(name) {
        name
    } else {
        let mut fits: Vec<&String> = r
            .entries
            .keys()
            .filter(|k| k.eq_ignore_ascii_case(name))
            .collect();
        fits.sort();
        match fits[..] {
            [k] => {
                folded = k.clone();
                folded.as_str()
            }
            [] => name,
            _ => {
                let fits = fits
                    .iter()
                    .map(|k| k.as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(LoadError::Ambiguous(name.to_string(), fits));
            }
        }
    };
    let Some(entry) = r.entries.get(name).and_then(|layers| layers.last()) else {
        drop(r);
        return Err(LoadError::Unknown(name.to_string(), known().join(", ")));
    };
    if let Some(v) = &entry.compiled {
        return Ok(Arc::clone(v));
    }
    // Only built-ins are compiled lazily; their TOML errors are best told against
    // their own text.
    let v = match TABLES.iter().find(|(n, _)| *n == name) {
        Some((_, text)) => compile_builtin(text, &entry.origin)?,
        None => compile_table(entry.table().clone(), &entry.origin)?,
    };
    if let Some(e) = r.entries.get_mut(name).and_then(|layers| layers.last_mut()) {
        e.compiled = Some(Arc::clone(&v));
    }
    Ok(v)
}

/// Loads a user's variant file; its variant can afterwards be named like a built-in,
/// and later files may extend it.
pub fn load_file(path: &str) -> Result<Arc<Variant>, LoadError> {
    let text = crate::core::input::read_text(path, crate::core::input::MAX_TABLE_BYTES)
        .map_err(|e| LoadError::Io(path.to_string(), e.to_string()))?;
    load_text(&text, path)
}

/// Loads a table given as text (`origin` names it in errors), as [`load_file`] does.
pub fn load_text(text: &str, origin: &str) -> Result<Arc<Variant>, LoadError> {
    let mut r = registry();
    // Reloading a file replaces its own layer: set that layer aside while resolving, so
    // that a table extending its own name extends what came before it.
    let name = peek_name(text);
    let own = name.as_ref().and_then(|n| {
        let layers = r.entries.get_mut(n)?;
        let i = layers.iter().rposition(|e| e.origin == origin)?;
        Some(layers.remove(i))
    });
    let result = resolve(text, origin, &r.entries)
        .and_then(|table| Ok((compile_table(table.clone(), origin)?, table)));
    let (v, table) = match result {
        Ok(ok) => ok,
        Err(e) => {
            if let (Some(n), Some(entry)) = (name, own) {
                r.entries.entry(n).or_default().push(entry);
            }
            return Err(e.into());
        }
    };
    let name = v.name.clone();
    r.entries.entry(name.clone()).or_default().push(Entry {
        table: OnceLock::from(table),
        text: "",
        origin: origin.to_string(),
        compiled: Some(Arc::clone(&v)),
    });
    r.loaded.retain(|n| *n != name);
    r.loaded.push(name);
    Ok(v)
}

impl Variant {
    /// Parses, resolves (`extends` may name any known variant) and compiles a table;
    /// `origin` names it in errors; its start FEN is checked as a position. The variant
    /// is not registered (see [`load_text`]).
    pub fn from_toml(text: &str, origin: &str) -> Result<Arc<Variant>, VariantError> {
        let r = registry();
        compile_text(text, origin, &r.entries)
    }
}

/// The `name` a table's text declares, if it parses that far.
fn peek_name(text: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(text).ok()?;
    Some(table.get("name")?.as_str()?.to_string())
}

fn compile_text(
    text: &str,
    origin: &str,
    entries: &AHashMap<String, Vec<Entry>>,
) -> Result<Arc<Variant>, VariantError> {
    compile_table(resolve(text, origin, entries)?, origin)
}

/// Parses a table and lays it over the table it `extends`, if any. Known tables are
/// stored resolved, so one level is looked up here, and a chain of extensions cannot
/// loop back (a base must be known before a table can extend it); the one loop left, a
/// table extending its own name with nothing of that name before it, is refused.
fn resolve(
    text: &str,
    origin: &str,
    entries: &AHashMap<String, Vec<Entry>>,
) -> Result<toml::Table, VariantError> {
    let mut table: toml::Table = parse(text, origin)?;
    let Some(base_name) = table.remove("extends") else {
        return Ok(table);
    };
    let err = |msg: String| VariantError::Value {
        origin: origin.to_string(),
        key: "extends".into(),
        msg,
    };
    let toml::Value::String(base_name) = base_name else {
        return Err(err(
            "must be the name of a known variant, as a string".into()
        ));
    };
    let own = table.get("name").and_then(|n| n.as_str());
    let base = entries
        .get(&base_name)
        .and_then(|layers| layers.last())
        .ok_or_else(|| {
            if own == Some(base_name.as_str()) {
                return err(format!(
                    "\"{base_name}\" extends itself, a loop: no earlier table of that name"
                ));
            }
            let mut known: Vec<&str> = entries
                .iter()
                .filter(|(_, l)| !l.is_empty())
                .map(|(k, _)| k.as_str())
                .collect();
            known.sort_unstable();
            err(format!(
                "\"{base_name}\" is not a known variant ({})",
                known.join(", ")
            ))
        })?;
    let mut merged = base.table().clone();
    // Placement and passed-pawn weights are per square and rank: a table on another
    // board starts from its own derived weights, not from the base's `[eval]`.
    if ["files", "ranks"]
        .iter()
        .any(|k| table.get(*k).is_some_and(|v| merged.get(*k) != Some(v)))
    {
        merged.remove("eval");
    }
    merge_tables(&mut merged, table);
    Ok(merged)
}

/// Compiles a built-in table, which extends nothing, straight from its text: every
/// process that names a game pays for this start-up, and a generic TOML table between
/// the text and the structure is one more pass over every weight (about 6% of it).
/// Its `[eval]` sections, when they close the text, are left for the first evaluation:
/// fitted weights are most of a table, and perft or a move listing never reads them.
fn compile_builtin(text: &'static str, origin: &str) -> Result<Arc<Variant>, VariantError> {
    let (rules, eval) = split_eval(text);
    let mut v = Variant::compile(parse(rules, origin)?, origin)?;
    if let Some(eval) = eval {
        v.defer_eval(eval);
    }
    check_start(v.shared(), origin)
}

/// A table's text cut where its `[eval]` sections begin, when nothing else follows
/// them (else the whole text and None).
fn split_eval(text: &str) -> (&str, Option<&str>) {
    let mut at = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        // A header names a table (`[name]`, `[[name]]`); an array's row opens with a
        // number or a string.
        let head = line.trim_start();
        let name = head.strip_prefix("[[").or_else(|| head.strip_prefix('['));
        if name.is_some_and(|n| n.starts_with(|c: char| c.is_ascii_alphabetic())) {
            let is_eval = head.starts_with("[eval]") || head.starts_with("[eval.");
            match (at, is_eval) {
                (None, true) => at = Some(offset),
                (Some(_), false) => return (text, None),
                _ => {}
            }
        }
        offset += line.len();
    }
    match at {
        Some(i) => (&text[..i], Some(&text[i..])),
        None => (text, None),
    }
}

/// Parses a table's text into `T`, a syntax error told against the text's own lines.
fn parse<T: serde::de::DeserializeOwned>(text: &str, origin: &str) -> Result<T, VariantError> {
    toml::from_str(text).map_err(|e| VariantError::Toml {
        origin: origin.to_string(),
        msg: toml_message(text, &e),
    })
}

/// Compiles a resolved table and checks its start FEN as a position.
fn compile_table(table: toml::Table, origin: &str) -> Result<Arc<Variant>, VariantError> {
    let file: VariantFile =
        toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| VariantError::Toml {
                origin: origin.to_string(),
                msg: e.to_string().replace('\n', " ").trim().to_string(),
            })?;
    compile_file(file, origin)
}

/// Compiles a deserialized table and checks its start FEN as a position.
fn compile_file(file: VariantFile, origin: &str) -> Result<Arc<Variant>, VariantError> {
    check_start(Variant::compile(file, origin)?.shared(), origin)
}

/// Checks a compiled variant's start FEN as a position.
fn check_start(v: Arc<Variant>, origin: &str) -> Result<Arc<Variant>, VariantError> {
    Position::from_fen(&v, &v.start_fen).map_err(|e| VariantError::Value {
        origin: origin.to_string(),
        key: "start".into(),
        msg: e.to_string(),
    })?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--variant CHESS` and `UCI_Variant value Grand` name the built-ins; a name two
    /// tables share but for case names neither, and the error lists both.
    #[test]
    fn a_name_in_another_case_names_the_one_table_it_fits() {
        assert_eq!(get("CHESS").unwrap().name, "chess");
        assert_eq!(get("Grand").unwrap().name, "grand");
        let table = |name: &str| {
            format!(
                "name = \"{name}\"\nextends = \"chess\"\nstart = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n"
            )
        };
        load_text(&table("case-twin"), "a").unwrap();
        load_text(&table("Case-Twin"), "b").unwrap();
        assert_eq!(get("case-twin").unwrap().name, "case-twin");
        assert_eq!(get("Case-Twin").unwrap().name, "Case-Twin");
        let err = get("CASE-TWIN").err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some(
                "variant \"CASE-TWIN\" fits more than one table but for case \
             (Case-Twin, case-twin); give one exactly"
            )
        );
    }

    #[test]
    fn eval_sections_that_close_a_table_are_cut_off() {
        let text = "name = \"x\"\n[[piece]]\nletter = \"K\"\n[eval]\ntempo = [1, 2]\n[eval.piece.K]\nhand = [0, 0]\n";
        let (rules, eval) = split_eval(text);
        assert_eq!(rules, "name = \"x\"\n[[piece]]\nletter = \"K\"\n");
        assert_eq!(
            eval,
            Some("[eval]\ntempo = [1, 2]\n[eval.piece.K]\nhand = [0, 0]\n")
        );
        // A section after the weights keeps the table whole.
        let mixed = "[eval]\ntempo = [1, 2]\n[search]\nnull_move = false\n";
        assert_eq!(split_eval(mixed), (mixed, None));
        assert_eq!(split_eval("[[piece]]\n"), ("[[piece]]\n", None));
    }

    /// The weights a built-in table's evaluation reads are the same whether its `[eval]`
    /// sections were compiled with the rest of the table or on first use.
    #[test]
    fn deferred_eval_sections_compile_as_the_whole_table_would() {
        for (name, text) in TABLES {
            let origin = format!("tables/{name}.toml");
            let lazy = compile_builtin(text, &origin).unwrap();
            let whole = compile_file(parse(text, &origin).unwrap(), &origin).unwrap();
            assert_eq!(
                format!("{:?}", lazy.eval()),
                format!("{:?}", whole.eval()),
                "{name}"
            );
            // Nothing but the weights is left for later.
            let (rules, eval) = split_eval(text);
            assert_eq!(eval.is_some(), text.contains("\n[eval]"), "{name}");
            let mut all: VariantFile = parse(text, &origin).unwrap();
            all.eval = None;
            let head: VariantFile = parse(rules, &origin).unwrap();
            assert_eq!(format!("{head:?}"), format!("{all:?}"), "{name}");
        }
    }
}
