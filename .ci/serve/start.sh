# Sourced by .ci/serve.sh and .ci/serve/load.sh. start_server WHO ARGS...: starts "$bin" serve
# on a free loopback port with ARGS, its log in "$work/server.log"; sets $server (its pid) and
# $url (the address it prints first), or shows the log and exits naming WHO.
start_server() {
  local who=$1
  shift
  "$bin" serve --listen 127.0.0.1:0 "$@" 2>"$work/server.log" &
  server=$!
  for _ in $(seq 1 100); do
    url=$(sed -n 's|^chaff: serving on \(http://[0-9.:]*\)/$|\1|p' "$work/server.log")
    [ -n "$url" ] && return 0
    sleep 0.1
  done
  cat "$work/server.log" >&2
  echo "$who: the server did not start" >&2
  exit 1
}
