#!/usr/bin/env bash
# --set values that are not UTF-8, or not one TOML value, are bad input:
# exit code 2 and one line naming the override (never the TOML parser's
# message, never exit code 1), for validate and run alike.
#   set_values_are_text.sh TETHERSIM MODEL OUTPUT_DIR
set -uo pipefail
exe=$1
model=$2
output=$3
failures=0

# expect EXIT REGEX ARGS...: runs tethersim with ARGS, checks the exit code,
# that stderr is one line, and that it matches REGEX.
expect() {
  local want=$1 pattern=$2
  shift 2
  local err code lines
  err=$("$exe" "$@" 2>&1 >/dev/null)
  code=$?
  lines=$(printf '%s\n' "$err" | wc -l)
  if [ "$code" != "$want" ] || [ "$lines" != 1 ] || ! LC_ALL=C grep -qE -e "$pattern" <<< "$err"; then
    echo "FAIL: tethersim $* -> exit $code, $lines lines: $err" | LC_ALL=C cat -v >&2
    failures=$((failures + 1))
  fi
}

bad=$'\xff'
# Invalid UTF-8 in a bare value, a quoted one, a multi-line string and the key.
expect 2 '^tethersim: error: --set model\.name=\\xFF: byte \\xFF at column 12 is not UTF-8 text' \
  validate "$model" --set "model.name=$bad"
expect 2 '^tethersim: error: --set model\.name="\\xFF": byte \\xFF at column 13 is not UTF-8' \
  validate "$model" --set "model.name=\"$bad\""
expect 2 '^tethersim: error: --set model\.name="""\\xFF""": byte \\xFF' \
  validate "$model" --set "model.name=\"\"\"$bad\"\"\""
expect 2 '^tethersim: error: --set model\.na\\xC3me=1: byte \\xC3 at column 9 is not UTF-8' \
  validate "$model" --set $'model.na\xc3me=1'
# A truncated sequence, an overlong form and a surrogate are not UTF-8 either.
expect 2 'byte \\xE2 at column 12 is not UTF-8' validate "$model" --set $'model.name=\xe2\x82'
expect 2 'byte \\xC0 at column 12 is not UTF-8' validate "$model" --set $'model.name=\xc0\xaf'
expect 2 'byte \\xED at column 12 is not UTF-8' validate "$model" --set $'model.name=\xed\xa0\x80'
# The same through run (before any output is written) and through --output.
expect 2 '^tethersim: error: --set model\.name=\\xFF: byte \\xFF' \
  run "$model" --set "model.name=$bad" -o "$output"
expect 2 '^tethersim: error: --set output\.directory="\\xFF": byte \\xFF' \
  run "$model" -o "$bad"
# A value that is TOML followed by more TOML is one bare string, refused
# where a number is wanted; control characters in a bare string are text.
expect 2 '^tethersim: error: --set run\.seed=1 other = 2: run\.seed: expected an integer, got a string' \
  validate "$model" --set $'run.seed=1\nother = 2'
expect 2 '^tethersim: error: --set run\.end_time=1 \[x\]: run\.end_time: expected a number' \
  validate "$model" --set $'run.end_time=1\n[x]'
expect 2 '--set run\.end_time=\\x01: run\.end_time: expected a number \(or inf\), got a string' \
  validate "$model" --set $'run.end_time=\x01'
# Valid UTF-8 beyond ASCII is text like any other.
if ! "$exe" validate --quiet "$model" --set 'model.name=Größe'; then
  echo "FAIL: a UTF-8 model name is refused" >&2
  failures=$((failures + 1))
fi

[ "$failures" = 0 ] || exit 1
echo "every override that is not text is refused with one line"
