#!/bin/sh
# The core crate and the finalists build without std for the Cortex-M cores
# of the 2012 two-core study (Table III's code sizes come from these builds:
# bench/finalists/size.py). No atomics wider than the target has, no Arc
# where there is no compare-and-swap: a break here shows up as "unavailable"
# rows in bench-finalists otherwise, long after the change.
# Targets that are not installed and cannot be installed are skipped, said.
set -e
CARGO=${CARGO:-cargo}
for t in thumbv6m-none-eabi thumbv7em-none-eabihf; do
  if ! rustup target list --installed 2>/dev/null | grep -qx "$t"; then
    rustup target add "$t" >/dev/null 2>&1 || { echo "check_no_std: $t skipped (rustup target add $t failed)"; continue; }
  fi
  $CARGO check --release --quiet -p keccakx -p finalists --no-default-features --target "$t"
  echo "check_no_std: keccakx and finalists build for $t without std"
done
