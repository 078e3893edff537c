#!/usr/bin/env bash
# capi/dpi/run.sh: builds the model's C ABI (libpica_capi.a), verilates pica_top_dpi_tb (pica_top
# with the model as its scoreboard through DPI-C only), runs it on every vectors/examples/*.hex
# and capi/dpi/lists/*.hex and every front-end bundle of vectors/corpus (all must PASS), then builds it with the injected bug INJECT_MASK_BUG
# and checks that the bench FAILS on 03_masked_writes.hex with a message naming the register
# (a register-write beat differs), and with INJECT_PACKER_BUG that it FAILS on
# lists/packer_f24_y.hex in the final state (no beat differs: only the debug-port comparison
# sees it). Exit status 0 only if all of that holds. Run from anywhere.
#
#   capi/dpi/run.sh              everything above
#   capi/dpi/run.sh FILE.hex...  only the normal build, on these lists
#
# Builds live in target/dpi/<variant>/ (front, inject_mask_bug, inject_packer_bug), reused when
# the sources, defines and Verilator are unchanged (relinked when libpica_capi.a is newer).
# Environment: VERILATOR (default verilator), JOBS (default nproc).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rtl="$root/rtl-bridge/rtl"
lib="$root/target/release/libpica_capi.a"
verilator="${VERILATOR:-verilator}"
jobs="${JOBS:-$(nproc)}"
top=pica_top_dpi_tb

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

command -v "$verilator" >/dev/null || { echo "run.sh: $verilator not found (scripts/setup installs it)" >&2; exit 2; }
command -v cargo >/dev/null || { echo "run.sh: cargo not found" >&2; exit 2; }

# The sources in compile order: every rtl package, this package, the modules pica_top reaches
# (a file is taken when a taken file names a module it declares, as rtl-bridge/build.rs
# `dependencies` does), the bench.
sources() {
  local -a pkgs=() mods=() taken=("$rtl/pica_top.sv")
  local f m changed=1
  for f in "$rtl"/*_pkg.sv; do pkgs+=("$f"); done
  while [ "$changed" = 1 ]; do
    changed=0
    for f in "$rtl"/*.sv; do
      case "$f" in *_pkg.sv) continue ;; esac
      case " ${taken[*]} " in *" $f "*) continue ;; esac
      for m in $(sed -n 's/^[[:space:]]*module[[:space:]]\+\([A-Za-z_][A-Za-z0-9_$]*\).*/\1/p' "$f"); do
        if grep -qw -- "$m" "${taken[@]}"; then taken+=("$f"); changed=1; break; fi
      done
    done
  done
  mods=("${taken[@]}")
  printf '%s\n' "${pkgs[@]}" "$here/pica_model_dpi.sv" "${mods[@]}" "$here/pica_top_dpi_tb.sv"
}
mapfile -t srcs < <(sources)

# Common Verilator arguments (part of the build stamp).
vargs=(--timescale 1ns/1ps --top-module "$top" -I"$rtl" -GEnableSh=0)

t_all=$(now)

# --- 1. The model's static library ------------------------------------------------------------
t=$(now)
echo "== cargo build --release -p pica-capi"
(cd "$root" && cargo build --release -p pica-capi)
[ -f "$lib" ] || { echo "run.sh: $lib was not built" >&2; exit 1; }
echo "   library: $(since "$t")"

# --- 2. Lint: the package and the bench must be -Wall clean -----------------------------------
t=$(now)
lint_log="$root/target/dpi/lint.log"
mkdir -p "$root/target/dpi"
"$verilator" --lint-only -Wall --timing "${vargs[@]}" "${srcs[@]}" >"$lint_log" 2>&1 || true
if grep -q "capi/dpi/" "$lint_log"; then
  echo "run.sh: verilator -Wall warnings in capi/dpi:" >&2
  cat "$lint_log" >&2
  exit 1
fi
echo "== lint -Wall: capi/dpi clean ($(since "$t"))"

# The package's constants must equal the header's (#define PICA_<NAME> <value>).
header="$root/capi/include/pica_model.h"
if [ -f "$header" ]; then
  drift=0 n_const=0
  while read -r name value; do
    pv="$(sed -n "s/^[[:space:]]*localparam int\( unsigned\)\?[[:space:]]\+$name[[:space:]]*=[[:space:]]*\(32'd\)\?\(-\?[0-9]\+\);.*/\3/p" "$here/pica_model_dpi.sv")"
    if [ -z "$pv" ]; then
      echo "run.sh: $name ($value in pica_model.h) is missing from pica_model_dpi.sv" >&2; drift=1
    elif [ "$pv" != "$value" ]; then
      echo "run.sh: $name is $value in pica_model.h but $pv in pica_model_dpi.sv" >&2; drift=1
    fi
    n_const=$((n_const + 1))
  done < <(sed -n 's/^#define \(PICA_\(OK\|EMPTY\|ERR_[A-Z_]*\|GPU_[A-Z_]*\|OUTCOME_[A-Z_]*\|ABI_VERSION\)\) \(-\?[0-9]\+\).*/\1 \3/p' "$header")
  [ "$drift" = 0 ] || exit 1
  [ "$n_const" -gt 0 ] || { echo "run.sh: read no constants from $header" >&2; exit 1; }
  echo "== $n_const constants equal pica_model.h's"
fi

# --- 3. Build a variant: build VARIANT DEFINE... -> prints nothing, sets $bin ---------------------
build() {
  local variant="$1"; shift
  local dir="$root/target/dpi/$variant"
  local -a defs=()
  local d
  for d in "$@"; do defs+=("+define+$d"); done
  local stamp
  stamp="$( { "$verilator" --version; printf '%s\n' "${vargs[@]}" "${defs[@]+"${defs[@]}"}";
              for f in "${srcs[@]}"; do echo "$f"; cat "$f"; done; } | sha256sum | cut -c1-16)"
  bin="$dir/$top"
  local t0
  t0=$(now)
  if [ -x "$bin" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
    if [ "$lib" -nt "$bin" ]; then
      rm -f "$bin"
      make -s -C "$dir" -f "V$top.mk" -j "$jobs" >"$dir/relink.log" 2>&1 || { cat "$dir/relink.log" >&2; return 1; }
      echo "== $variant: relinked with the new library ($(since "$t0"))"
    else
      echo "== $variant: build up to date ($dir)"
    fi
    return 0
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  if ! "$verilator" --binary -j "$jobs" "${vargs[@]}" "${defs[@]+"${defs[@]}"}" \
      -Mdir "$dir" -o "$top" "${srcs[@]}" "$lib" -LDFLAGS "-lpthread -ldl -lm" \
      >"$dir/build.log" 2>&1; then
    cat "$dir/build.log" >&2
    echo "run.sh: building $variant failed (log: $dir/build.log)" >&2
    return 1
  fi
  echo "$stamp" >"$dir/stamp"
  echo "== $variant: verilated and built in $(since "$t0") ($dir)"
}

# --- 4. The normal build on every example -------------------------------------------------------
build front
if [ $# -gt 0 ]; then lists=("$@"); else lists=("$root"/vectors/examples/*.hex "$here"/lists/*.hex); fi
# run_case LABEL PLUSARGS...: one run of the normal build; its PASS line is shown, a failure
# is shown and counted in $fails.
run_case() {
  local label="$1" out
  shift
  if out="$("$bin" "$@" 2>&1)" && grep -q '^PASS' <<<"$out"; then
    grep '^PASS' <<<"$out" | sed "s#$root/##"
  else
    echo "$out" | grep -v '^\s*$' | sed "s#$root/##" | sed 's/^/   /' >&2
    echo "FAILED: $label" >&2
    fails=$((fails + 1))
  fi
}
t=$(now)
fails=0
for l in "${lists[@]}"; do run_case "$l" +list="$l"; done
echo "== ${#lists[@]} lists, $fails failed ($(since "$t"))"
[ "$fails" = 0 ] || exit 1
[ $# -eq 0 ] || { echo "== done ($(since "$t_all") in all)"; exit 0; }

# --- 4b. The golden-vector corpus: every front-end bundle of vectors/corpus ---------------------
# A bundle's manifest gives the submission, the memory images and the cycle limit: the first
# image goes in as +list at its base (+addr, +size from `submit`), the others as +memK.
bundle_args() {
  python3 - "$1" <<'PY'
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))
if m.get("pipeline") or m.get("sequence"):
    # Pipeline bundles, and bundles of several lists submitted one after another (this bench
    # submits one list; scripts/replay and pica lockstep replay sequences).
    sys.exit(3)
mem = m["memory"]
a = [f"+list={os.path.join(d, mem[0]['file'])}", f"+addr={int(mem[0]['base'], 16):x}",
     f"+size={int(m['submit']['size'], 16)}", f"+max_cycles={m['max_cycles']}"]
assert int(m["submit"]["addr"], 16) == int(mem[0]["base"], 16), "submit is not the first image"
for k, im in enumerate(mem[1:]):
    a += [f"+mem{k}={os.path.join(d, im['file'])}", f"+mem{k}_addr={int(im['base'], 16):x}"]
print(" ".join(a))
PY
}
t=$(now)
n=0
for d in "$root"/vectors/corpus/*/; do
  args="$(bundle_args "$d")" || continue
  n=$((n + 1))
  read -ra plusargs <<<"$args" # plusargs hold no spaces
  run_case "bundle $d" "${plusargs[@]}"
done
echo "== $n corpus bundles, $fails failed ($(since "$t"))"
[ "$fails" = 0 ] || exit 1

# --- 5. The injected bugs must be caught ---------------------------------------------------------
# expect_fail VARIANT LIST PATTERN: the bench must fail on LIST, its first FAIL line matching
# PATTERN (grep -E).
expect_fail() {
  local variant="$1" list="$2" pattern="$3" out msg t0
  t0=$(now)
  if out="$("$bin" +list="$list" 2>&1)"; then
    echo "$out" >&2
    echo "run.sh: $variant was NOT caught on $list (the bench passed)" >&2
    return 1
  fi
  msg="$(grep -m1 'FAIL' <<<"$out" | sed "s#$root/##" || true)"
  if ! grep -Eq -- "$pattern" <<<"$msg"; then
    echo "$out" >&2
    echo "run.sh: the $variant build failed, but its first FAIL line does not match /$pattern/" >&2
    return 1
  fi
  echo "== $variant caught ($(since "$t0")):"
  grep 'FAIL' <<<"$out" | sed "s#$root/##" | sed 's/^/   /'
}

build inject_mask_bug INJECT_MASK_BUG
expect_fail INJECT_MASK_BUG "$root/vectors/examples/03_masked_writes.hex" 'GPUREG_'

build inject_packer_bug INJECT_PACKER_BUG
expect_fail INJECT_PACKER_BUG "$here/lists/packer_f24_y.hex" 'final state'

echo "== all passed ($(since "$t_all") in all)"
