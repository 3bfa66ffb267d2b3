#!/usr/bin/env bash
# Fuzz smoke test: every target of fuzz/ runs for FUZZ_SECONDS (30) from seeds built here
# (chaff-lab fuzz-seeds: ../shared pages, synthetic sites, learned profiles, ...). Any
# crash, hang (5 s of wall time here: CI shares the machine; the campaigns hold inputs to
# 1 s) or RSS over 2 GB fails the step. Installs cargo-fuzz when missing and
# builds with the nightly toolchain when there is one, else with stable under
# RUSTC_BOOTSTRAP=1; both without a sanitizer (-s none), as the long campaigns ran.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${FUZZ_SECONDS:-30}"
start=$(date +%s)
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
if cargo +nightly --version >/dev/null 2>&1; then
  fuzz=(cargo +nightly fuzz)
else
  echo "fuzz: no nightly toolchain; building with stable and RUSTC_BOOTSTRAP=1" >&2
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
fi
root="$(pwd)"
work="$root/target/fuzz-smoke"
rm -rf "$work"
seeds="$work/seeds"
cargo run -q -p chaff-lab -- fuzz-seeds --out "$seeds" --pages 100
"${fuzz[@]}" build -s none
for t in $("${fuzz[@]}" list); do
  corpus="$work/corpus/$t"
  log="$work/$t.log"
  mkdir -p "$corpus"
  if ! "${fuzz[@]}" run -s none "$t" "$corpus" "$seeds/$t" -- \
    -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz: $t failed (input in fuzz/artifacts/$t, log $log)" >&2
    exit 1
  fi
  echo "fuzz: $t: $(grep -m1 '^stat::number_of_executed_units' "$log" || echo 'no stats') in ${secs}s"
done
echo "fuzz: smoke done in $(( $(date +%s) - start ))s"
