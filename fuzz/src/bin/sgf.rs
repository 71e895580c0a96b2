//! AFL entry point of the `sgf` target (see src/targets.rs).
fn main() {
    tavla_fuzz::targets::warm_up();
    afl::fuzz!(|data: &[u8]| tavla_fuzz::targets::sgf_file(data));
}
