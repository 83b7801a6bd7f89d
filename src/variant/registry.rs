//! The built-in variants: tables embedded in the binary, compiled once on first use.

use crate::variant::{Variant, VariantError};
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Name and TOML text of every built-in table, in listing order.
pub const TABLES: &[(&str, &str)] = &[
    ("chess", include_str!("../../tables/chess.toml")),
    ("capablanca", include_str!("../../tables/capablanca.toml")),
    ("embassy", include_str!("../../tables/embassy.toml")),
    ("janus", include_str!("../../tables/janus.toml")),
    ("shako", include_str!("../../tables/shako.toml")),
    ("grand", include_str!("../../tables/grand.toml")),
    ("archmage", include_str!("../../tables/archmage.toml")),
    (
        "wildeurasian",
        include_str!("../../tables/wildeurasian.toml"),
    ),
    ("augsburg", include_str!("../../tables/augsburg.toml")),
    (
        "combined-arms",
        include_str!("../../tables/combined-arms.toml"),
    ),
];

static CACHE: Lazy<Mutex<HashMap<String, Arc<Variant>>>> = Lazy::new(|| Mutex::new(HashMap::new()));

/// Why a variant could not be had.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// No built-in or loaded variant has that name.
    #[error("unknown variant \"{0}\" (known: {1})")]
    Unknown(String, String),
    /// The table is broken.
    #[error(transparent)]
    Table(#[from] VariantError),
    /// The file cannot be read.
    #[error("cannot read variant file {0}: {1}")]
    Io(String, String),
}

/// Names of the built-in variants.
pub fn names() -> Vec<&'static str> {
    TABLES.iter().map(|(n, _)| *n).collect()
}

/// A built-in or previously loaded variant by name (compiled once, then shared).
pub fn get(name: &str) -> Result<Arc<Variant>, LoadError> {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = cache.get(name) {
        return Ok(Arc::clone(v));
    }
    let (_, text) = TABLES.iter().find(|(n, _)| *n == name).ok_or_else(|| {
        let mut known: Vec<String> = names().iter().map(|s| s.to_string()).collect();
        known.extend(
            cache
                .keys()
                .filter(|k| !names().contains(&k.as_str()))
                .cloned(),
        );
        LoadError::Unknown(name.to_string(), known.join(", "))
    })?;
    let v = Arc::new(Variant::from_toml(text, &format!("tables/{name}.toml"))?);
    cache.insert(name.to_string(), Arc::clone(&v));
    Ok(v)
}

/// Loads a user's variant file; its variant can afterwards be named like a built-in.
pub fn load_file(path: &str) -> Result<Arc<Variant>, LoadError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| LoadError::Io(path.to_string(), e.to_string()))?;
    let v = Arc::new(Variant::from_toml(&text, path)?);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.insert(v.name.clone(), Arc::clone(&v));
    Ok(v)
}
