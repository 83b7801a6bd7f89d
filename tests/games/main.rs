//! The games' rules, perft counts and cross-checks against the independent generators of
//! `tests/reference/`, built as one test program: as fourteen, each took about 24 s to
//! link (release, fat LTO) against a second or two to run, half of CI's build time.

#[path = "../common/mod.rs"]
mod common;
#[path = "../reference/mod.rs"]
mod reference;

mod archmage_differential;
mod archmage_rules;
mod augsburg_differential;
mod augsburg_rules;
mod check_after_move;
mod chess_perft;
mod combined_arms_differential;
mod combined_arms_rules;
mod extended_mechanisms;
mod grasshopper;
mod hopper_lines;
mod large_boards;
mod perft_hash;
mod wildeurasian_differential;
mod wildeurasian_rules;
