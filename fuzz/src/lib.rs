//! tavla's fuzz targets: one function per kind of outside input, each
//! calling the public API and panicking only when an invariant breaks.
//! `src/bin/<target>.rs` hands each to AFL; `src/bin/make_corpus.rs` writes
//! the seed corpus.

pub mod targets;
