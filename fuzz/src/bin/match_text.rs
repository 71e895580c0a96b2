//! AFL entry point of the `match_text` target (see src/targets.rs).
fn main() {
    tavla_fuzz::targets::warm_up();
    afl::fuzz!(|data: &[u8]| tavla_fuzz::targets::match_text(data));
}
