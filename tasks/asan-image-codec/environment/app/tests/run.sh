#!/bin/sh
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Public tests: every tests/samples/NAME.kimg with a NAME.pnm must decode to exactly that file; every one
# without (bad-*.kimg) must be rejected with exit status 2, no output file and no sanitizer report.
# usage: sh tests/run.sh [path/to/imgtool]    (default build/imgtool-asan)
tool=${1:-build/imgtool-asan}
dir=$(dirname "$0")/samples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=0:exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=86
pass=0
fail=0
for f in "$dir"/*.kimg; do
    name=$(basename "$f" .kimg)
    out="$tmp/$name.pnm"
    "$tool" decode "$f" "$out" 2>"$tmp/$name.err"
    status=$?
    if [ -f "$dir/$name.pnm" ]; then
        if [ $status -eq 0 ] && cmp -s "$out" "$dir/$name.pnm"; then ok=1; else ok=0; fi
    else
        if [ $status -eq 2 ] && [ ! -e "$out" ]; then ok=1; else ok=0; fi
    fi
    if [ $ok -eq 1 ]; then
        pass=$((pass + 1)); echo "PASS $name"
    else
        fail=$((fail + 1)); echo "FAIL $name (exit status $status)"; head -c 600 "$tmp/$name.err"
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
