#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Makes the installed libpmlab.a from the internal archive: one relocatable
# object with only the public functions (pmlab_*) global, so that a program
# linking it statically cannot clash with pmlab's internal names.
# usage: sh tools/lib-static.sh INTERNAL.a OUTPUT.a
set -eu
in=$1
out=$2
tmp=$out.o
rm -f "$tmp" "$out"
ld -r -o "$tmp" --whole-archive "$in"
objcopy --wildcard --keep-global-symbol='pmlab_*' "$tmp"
ar rcs "$out" "$tmp"
rm -f "$tmp"
