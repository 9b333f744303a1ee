#!/usr/bin/env bash
# Every command's usage line is made from its options: each option of the
# --help table (or, for a positional one, its value name) is in the
# "Usage:" block above it, so that the synopsis cannot leave one out.
#   help_names_every_option.sh TETHERSIM
set -euo pipefail
exe=$1
checked=0
for command in run validate info bench; do
  help=$("$exe" "$command" --help)
  usage=$(printf '%s\n' "$help" | sed '/^$/q')
  table=$(printf '%s\n' "$help" | sed -n '/^Options:/,$p')
  [ -n "$table" ] || { echo "FAIL: $command --help has no option table" >&2; exit 1; }
  while read -r name value; do
    [ "$name" = "--help" ] && continue
    if ! grep -qe "$name\b" <<< "$usage" && ! grep -qF -e "${value:-@none@}" <<< "$usage"; then
      echo "FAIL: tethersim $command --help: the usage line omits $name" >&2
      exit 1
    fi
    checked=$((checked + 1))
  done < <(printf '%s\n' "$table" | grep -oE -e '--[a-z-]+( \]| [^ (]+)?' | sed 's/ \]$//')
done
[ "$checked" -ge 25 ] || { echo "FAIL: only $checked options found in the help tables" >&2; exit 1; }
echo "usage lines name all $checked options"
