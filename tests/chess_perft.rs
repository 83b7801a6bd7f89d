//! FIDE chess perft: every line of perft/chess.epd, at depths that keep CI fast.
use tenfold::{builtin, perft::perft, Position};

#[test]
fn quick() {
    let v = builtin::get("chess").unwrap();
    let mut p = Position::startpos(&v);
    for (d, n) in [(1, 20), (2, 400), (3, 8902), (4, 197281)] {
        assert_eq!(perft(&mut p, d), n, "depth {d}");
    }
    let mut k = Position::from_fen(&v, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    for (d, n) in [(1, 48), (2, 2039), (3, 97862), (4, 4085603)] {
        assert_eq!(perft(&mut k, d), n, "kiwi depth {d}");
    }
}
