#!/usr/bin/env bash
# CI for the Python package (python/): a venv under target/, the package installed exactly as
# the README says (`pip install ./python`, a maturin build of crates/python), then pytest with
# Spark (local[2]) and datatrove. Installs what a fresh machine lacks: maturin, pytest,
# pyspark, pyarrow and datatrove from PyPI, a Java runtime for Spark from Debian's packages.
# Needs the workspace's debug binaries (`chaff`, `chaff-lab`), which `cargo test --workspace`
# has built; builds them when missing. Takes about 3.5 minutes on this machine with the crates
# built and the packages in pip's cache; a clean clone adds the release build of the extension.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-ci-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
py="$venv/bin/python"
"$py" -m pip install -q --upgrade pip
"$py" -m pip install -q maturin pytest pyspark pyarrow datatrove
if ! command -v java >/dev/null 2>&1; then
  apt-get update -q && apt-get install -y -q default-jre-headless
fi
cargo build -q -p chaff-cli -p chaff-lab
export CHAFF_BIN_DIR="$PWD/target/debug"
"$py" -m pip install -q ./python
status=0
"$venv/bin/pytest" -q -rs python/tests || status=$?
# 5: no tests were collected, which here means the suite is broken, not empty.
if [ "$status" -eq 5 ]; then
  echo "python: pytest collected no tests" >&2
fi
exit "$status"
