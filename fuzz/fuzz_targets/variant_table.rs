//! Fuzz target `variant_table`: see `tenfold::fuzz::variant_table`.
#![cfg_attr(feature = "libfuzzer", no_main)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| tenfold::fuzz::variant_table(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    tenfold_fuzz::replay(tenfold::fuzz::variant_table);
}
