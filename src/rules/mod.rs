//! Rule mechanisms, one file per table key: its table form, its compiled form, its
//! compile step and the hooks generation and make/unmake call.

pub mod stacking;
