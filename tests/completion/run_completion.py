#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The bash and zsh completions (data/completions) offer what the pmlab
binary knows: each case is a command line being typed and the words the
completion must offer for its last word. zsh is exercised where it is
installed, and reported as skipped where not.

usage: run_completion.py PMLAB_BINARY SOURCE_ROOT"""
import os
import shutil
import subprocess
import sys

CASES = [
    (["si"], ["sim"]),
    (["in"], ["info"]),
    (["sim", "--machine", "i7"], ["i7-4790"]),
    (["sim", "-w", "vid"], ["video"]),
    (["sim", "-w", "sq"], ["squarewave"]),
    (["sim", "--cpufreq", "sched"], ["schedutil"]),
    (["sim", "-w", "video", "--set", "dec"], ["decode_us="]),
    (["sim", "--set", "pm_qos"], ["pm_qos_latency_us="]),
    (["sim", "--tra"], ["--trace", "--trace-cpus"]),
    (["profile", "rec"], ["recommend"]),
    (["-q", "mon"], ["monitor"]),
    (["idletrace", "-g", "te"], ["teo"]),
    (["sim", "--format", "j"], ["json"]),
]

BASH = r'''
source "$1/data/completions/pmlab.bash"
shift
COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_pmlab
printf '%s\n' "${COMPREPLY[@]}"
'''

ZSH = r'''
fpath=("$1/data/completions" $fpath)
shift
typeset -a offered
compadd() {
	local a words_now=0
	for a in "$@"; do
		if (( words_now )); then offered+=("$a"); continue; fi
		case $a in --) words_now=1 ;; -S) ;; -*) ;; '') ;; *) offered+=("$a") ;; esac
	done
}
_files() { }
autoload -Uz _pmlab
words=("$@"); CURRENT=${#words}
_pmlab
print -rl -- ${(M)offered:#${words[CURRENT]}*}
'''


def offered(shell, script, pmlab, root, line):
    p = subprocess.run([shell, "-f" if shell == "zsh" else "--norc", "-c", script, shell, root,
                        pmlab] + line, capture_output=True, text=True, timeout=60)
    return p.returncode, set(p.stdout.split())


def main():
    pmlab, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shells = [("bash", BASH)]
    skipped = []
    if shutil.which("zsh"):
        shells.append(("zsh", ZSH))
    else:
        skipped.append("zsh_completion")
    passed, failed = 0, []
    for shell, script in shells:
        for line, want in CASES:
            rc, got = offered(shell, script, pmlab, root, line)
            missing = [w for w in want if w not in got]
            if rc or missing:
                failed.append(f"{shell}: pmlab {' '.join(line)}<TAB>: offered {sorted(got)}, "
                              f"missing {missing} (exit {rc})")
            else:
                passed += 1
    for f in failed:
        print(f"FAILED: {f}")
    print(f"[  PASSED  ] {passed} test(s).")
    if failed:
        print(f"[  FAILED  ] {len(failed)} test(s).")
    if skipped:
        print(f"[  SKIPPED ] {len(skipped)} test(s), listed below:")
        print("(zsh is not installed)")
        for s in skipped:
            print(f"[  SKIPPED ] {s}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
