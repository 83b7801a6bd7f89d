//! Fuzz target `xboard_lines`: see `tenfold::fuzz::xboard_lines`.
#![cfg_attr(feature = "libfuzzer", no_main)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| tenfold::fuzz::xboard_lines(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    tenfold_fuzz::replay(tenfold::fuzz::xboard_lines);
}
