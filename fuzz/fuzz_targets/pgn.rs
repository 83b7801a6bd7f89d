//! Fuzz target `pgn`: see `tenfold::fuzz::pgn`.
#![cfg_attr(feature = "libfuzzer", no_main)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| tenfold::fuzz::pgn(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    tenfold_fuzz::replay(tenfold::fuzz::pgn);
}
