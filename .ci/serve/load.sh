#!/usr/bin/env bash
# chaff serve under load (a measurement for the README, not a CI test): the release build on
# loopback against wrk (Debian's), 32 connections posting the scrapinghub-aeb pages in turn,
# beside `chaff extract` over the same pages on the same cores, in one run. Then a long run
# sampling the server's resident memory every 10 s, and a saturation run (more connections
# than the queue holds) that must give 503s, not a crash.
#   .ci/serve/load.sh [SECONDS_SHORT=30] [SECONDS_LONG=300]
set -euo pipefail
cd "$(dirname "$0")/../.."
short=${1:-30}
long=${2:-300}
shared=${CHAFF_SHARED:-../shared}
pages=$shared/datasets/scrapinghub-aeb/html
[ -d "$pages" ] || { echo "load: $pages is missing" >&2; exit 1; }
command -v wrk >/dev/null || { echo "load: wrk is missing (apt-get install wrk)" >&2; exit 1; }
cargo build -q --release -p chaff-cli
bin=$PWD/target/release/chaff
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill -TERM $server 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck source=start.sh
. .ci/serve/start.sh
mkdir "$work/pages"
for f in "$pages"/*.html.gz; do
  n=$(basename "$f" .gz)
  gzip -dc "$f" >"$work/pages/$n"
done
ls "$work"/pages/*.html >"$work/list"
count=$(wc -l <"$work/list")
echo "load: $count pages, $(du -sh "$work/pages" | cut -f1); $(nproc) cores; uptime: $(uptime)"

# chaff extract over the pages (each 10 times, as links, so that the process's start is a
# small part), three runs, the best kept.
mkdir "$work/repeated"
for r in $(seq 1 10); do
  while read -r f; do ln -s "$f" "$work/repeated/$r-$(basename "$f")"; done <"$work/list"
done
# Also per CPU second (user + system), which other processes' load does not skew.
best=
best_cpu=
for _ in 1 2 3; do
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$bin" extract -q "$work/repeated" >/dev/null
  read -r wall user sys <"$work/time"
  rate=$(echo "10 * $count / $wall" | bc -l)
  cpu=$(echo "10 * $count / ($user + $sys)" | bc -l)
  best=$(echo "if (${best:-0} > $rate) ${best:-0} else $rate" | bc -l)
  best_cpu=$(echo "if (${best_cpu:-0} > $cpu) ${best_cpu:-0} else $cpu" | bc -l)
done
printf 'load: chaff extract: %.1f pages/s, %.1f pages per CPU second (%d pages, best of 3)\n' \
  "$best" "$best_cpu" $((10 * count))

serve() {
  start_server load "$@"
}
stop() { kill -TERM "$server"; wait "$server"; server=; }
rss() { awk '/^VmRSS/ {print $2}' "/proc/$server/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }

serve
wrk -t2 -c32 -d5s -s .ci/serve/load.lua "$url" -- "$work/list" >/dev/null # warm-up
echo "load: wrk -t2 -c32 -d${short}s (server: --concurrency 0, one per core)"
ticks0=$(cpu_ticks)
wrk -t2 -c32 -d"${short}s" --latency -s .ci/serve/load.lua "$url" -- "$work/list" | tee "$work/short.txt"
ticks1=$(cpu_ticks)
rps=$(sed -n 's/^throughput: \([0-9.]*\) requests\/s$/\1/p' "$work/short.txt")
n=$(sed -n 's/^requests: \([0-9]*\),.*/\1/p' "$work/short.txt")
per_cpu=$(echo "$n * $(getconf CLK_TCK) / ($ticks1 - $ticks0)" | bc -l)
printf 'load: server: %.1f requests per CPU second\n' "$per_cpu"
printf 'load: server/extract throughput: %.0f%% (per CPU second: %.0f%%)\n' \
  "$(echo "100 * $rps / $best" | bc -l)" "$(echo "100 * $per_cpu / $best_cpu" | bc -l)"

echo "load: wrk -t2 -c32 -d${long}s, resident memory every 10 s (KiB):"
wrk -t2 -c32 -d"${long}s" -s .ci/serve/load.lua "$url" -- "$work/list" >"$work/long.txt" &
loadgen=$!
samples=()
while kill -0 "$loadgen" 2>/dev/null; do
  samples+=("$(rss)")
  sleep 10
done
wait "$loadgen"
echo "load: ${samples[*]}"
cat "$work/long.txt"
stop

echo "load: saturation: --concurrency 1, 256 connections (the queue holds 64)"
serve --concurrency 1
wrk -t2 -c256 -d"${short}s" -s .ci/serve/load.lua "$url" -- "$work/list" | tee "$work/sat.txt"
curl -fsS "$url/healthz" && echo
curl -fsS "$url/metrics" | grep -E '^chaff_http_requests_total\{route="/v1/extract"'
stop
echo "load: the server stopped cleanly after saturation"
