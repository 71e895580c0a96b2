//! AFL entry point of the `position_arrays` target (see src/targets.rs).
fn main() {
    tavla_fuzz::targets::warm_up();
    afl::fuzz!(|data: &[u8]| tavla_fuzz::targets::position_arrays(data));
}
