//! Fuzz target `uci_lines`: see `tenfold::fuzz::uci_lines`.
#![cfg_attr(feature = "libfuzzer", no_main)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| tenfold::fuzz::uci_lines(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    tenfold_fuzz::replay(tenfold::fuzz::uci_lines);
}
