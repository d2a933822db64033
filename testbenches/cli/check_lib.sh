# Sourced by the command-line checks: a temporary folder removed on exit, and check "what" CMD...,
# which counts CMD's success and prints FAIL: what otherwise (the caller ends with report).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; pass=0
check() {  # check "what" condition...
  local what="$1"; shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
