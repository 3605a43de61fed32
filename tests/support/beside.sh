#!/usr/bin/env bash
# `make test`'s runner: the main test run in the foreground, its output live, and the other
# checks one after another in the background beside it, each into a log that is printed once
# the main run is over.
#   bash tests/support/beside.sh MAIN_COMMAND [OTHER_COMMAND ...]
# Why: the main run (pytest with its stacks and browsers) spends much of its half hour waiting
# on its servers (a sample of six modules: 64 CPU-seconds in 60 s of wall time, one core of two);
# the lint and the web checks (about three CPU-minutes) fit beside it instead of before it. One
# lane, not one per check, so that the main run never has more than one check's company.
# Exit status: the first failure's (main run first), 0 when everything passed; every check runs
# and is reported even when one before it failed.
set -uo pipefail

main=$1
shift
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

(
  i=0
  for command in "$@"; do
    i=$((i + 1))
    start=$(date +%s)
    bash -c "$command" >"$logs/$i.log" 2>&1
    echo "$? $(($(date +%s) - start))" >"$logs/$i.status"
  done
) </dev/null &
beside=$!

bash -c "$main"
status=$?
wait "$beside"

i=0
for command in "$@"; do
  i=$((i + 1))
  read -r code seconds <"$logs/$i.status"
  echo
  echo "=== $command: exit $code, $seconds s"
  cat "$logs/$i.log"
  if [ "$code" != 0 ] && [ "$status" = 0 ]; then status=$code; fi
done
exit "$status"
