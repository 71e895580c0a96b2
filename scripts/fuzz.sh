#!/usr/bin/env bash
# Coverage-guided fuzzing of tavla's parsers and constructors (fuzz/): builds
# every target with cargo-afl and runs AFL++ on each for SECONDS (default 60),
# one after another, then reports per target the executions, executions per
# second, coverage (edges found, bitmap coverage, corpus paths) and crashes
# and hangs, and replays each crash without AFL to show its panic message.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     # all targets unless named
#
# Needs cargo-afl (`cargo install cargo-afl`, which builds AFL++ from the
# source it ships; this script installs it when missing). Environment:
#   FUZZ_TARGET_DIR  cargo's target directory for the instrumented build (default fuzz/target)
#   FUZZ_OUT         AFL's output directories, one per target (default fuzz/out)
#   FUZZ_TIMEOUT_MS  AFL's per-input time limit; slower inputs count as hangs (default 2000)
# Exit status 1 when any target found a crash or a hang. Crashing inputs stay
# in $FUZZ_OUT/<target>/default/crashes/; `replay TARGET FILE` (below) runs one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SECONDS_EACH=${1:-60}
shift || true
TARGET_DIR=${FUZZ_TARGET_DIR:-$ROOT/fuzz/target}
OUT=${FUZZ_OUT:-$ROOT/fuzz/out}
TIMEOUT_MS=${FUZZ_TIMEOUT_MS:-2000}

ALL=$(sed -n 's/^    ("\([a-z_]*\)", .*/\1/p' fuzz/src/targets.rs)
TARGETS=${*:-$ALL}

if ! cargo afl --version >/dev/null 2>&1; then
    echo "installing cargo-afl (builds AFL++, a few minutes)" >&2
    cargo install --locked cargo-afl
fi
# cargo-afl builds AFL++ on install; `config --build` does it for a new toolchain
# (and refuses, harmlessly, when it is already built).
cargo afl config --build >/dev/null 2>&1 || true

(cd fuzz && CARGO_TARGET_DIR=$TARGET_DIR cargo afl build --release --quiet)
BIN=$TARGET_DIR/release

# AFL++ on a shared machine: no core binding, no CPU governor or core-pattern
# demands, no curses screen; stop each run after SECONDS_EACH.
export AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
export AFL_QUIET=1

stat() { sed -n "s/^$2 *: *//p" "$1" | head -1; }

report=()
failed=0
for t in $TARGETS; do
    corpus=$ROOT/fuzz/corpus/$t
    [ -d "$corpus" ] || { echo "no corpus for target $t" >&2; exit 2; }
    dict=()
    [ -f "$ROOT/fuzz/dict/$t.dict" ] && dict=(-x "$ROOT/fuzz/dict/$t.dict")
    rm -rf "${OUT:?}/$t"
    mkdir -p "$OUT/$t"
    echo "== $t: ${SECONDS_EACH}s" >&2
    cargo afl fuzz -V "$SECONDS_EACH" -t "$TIMEOUT_MS" -i "$corpus" -o "$OUT/$t" "${dict[@]}" -- "$BIN/$t" \
        >"$OUT/$t/afl.log" 2>&1 || { echo "afl-fuzz failed on $t; see $OUT/$t/afl.log" >&2; tail -20 "$OUT/$t/afl.log" >&2; failed=1; continue; }
    s=$OUT/$t/default/fuzzer_stats
    crashes=$(stat "$s" saved_crashes)
    hangs=$(stat "$s" saved_hangs)
    report+=("$(printf '%-16s %10s %8s %7s %8s %6s %7s %6s' "$t" "$(stat "$s" execs_done)" \
        "$(stat "$s" execs_per_sec)" "$(stat "$s" edges_found)" "$(stat "$s" bitmap_cvg)" \
        "$(stat "$s" corpus_count)" "$crashes" "$hangs")")
    if [ "$crashes" != 0 ] || [ "$hangs" != 0 ]; then
        failed=1
        for f in "$OUT/$t"/default/crashes/id:*; do
            [ -e "$f" ] || continue
            echo "-- crash $f:" >&2
            "$BIN/replay" "$t" "$f" 2>&1 | grep -m1 -A2 "panicked" >&2 || true
        done
    fi
done

printf '%-16s %10s %8s %7s %8s %6s %7s %6s\n' target execs exec/s edges bitmap paths crashes hangs
printf '%s\n' "${report[@]}"
exit $failed
