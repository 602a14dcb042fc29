#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Runs every pmlab command of README.md's sh blocks as shown, in a scratch
directory (with the tree's data/ and tests/ and the built pmlab at build/src/cli/pmlab,
as the README assumes), host commands against a copy of a fake machine tree
($PMLAB_ROOT), simulated runs shortened by $PMLAB_MAX_DURATION. A command
that is not pmlab's (make, systemctl, cp) is listed as skipped, as is pmlab
record where it cannot run (not root, or no perf to record). Then checks
that data/samples is what tools/make-samples.py writes.

usage: run_readme.py PMLAB_BINARY SOURCE_ROOT"""
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

MAX_DURATION = "0.2"        # seconds of simulated time per run
FAKE_TREE = "tests/fixtures/host/acpi-cpufreq-server"


def blocks(readme):
    """The sh blocks' logical lines (continuations joined), in order."""
    out, cur, inside = [], None, False
    for line in open(readme, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("```"):
            inside = line.strip() == "```sh" and not inside
            if inside:
                out.append([])
            cur = None
            continue
        if not inside:
            continue
        if cur is not None:
            cur += " " + line.strip()
        else:
            cur = line
        if cur.endswith("\\"):
            cur = cur[:-1].rstrip()
            continue
        out[-1].append(cur.strip())
        cur = None
    return out


def scratch(pmlab, root):
    d = tempfile.mkdtemp(prefix="pmlab-readme-")
    os.makedirs(os.path.join(d, "build/src/cli"))
    os.makedirs(os.path.join(d, "bin"))
    os.symlink(pmlab, os.path.join(d, "build/src/cli/pmlab"))
    os.symlink(pmlab, os.path.join(d, "bin/pmlab"))
    os.symlink(os.path.join(root, "data"), os.path.join(d, "data"))
    os.symlink(os.path.join(root, "tests"), os.path.join(d, "tests"))
    shutil.copytree(os.path.join(root, FAKE_TREE), os.path.join(d, "fake-root"), symlinks=True)
    return d


def why_skip(cmd):
    word = cmd.split()[0]
    if word not in ("$B", "pmlab"):
        return "not a pmlab command"
    if cmd.split()[1:2] == ["record"]:
        if os.geteuid() != 0:
            return "pmlab record needs root"
        if not shutil.which(cmd.split("--", 1)[1].split()[0]):
            return "the recorded command is not installed"
    return None


def main():
    pmlab, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    d = scratch(pmlab, root)
    env = dict(os.environ, PMLAB_MAX_DURATION=MAX_DURATION,
               PMLAB_ROOT=os.path.join(d, "fake-root"),
               PATH=os.path.join(d, "bin") + os.pathsep + os.environ.get("PATH", ""),
               SLURM_CPUS_PER_TASK="2", SLURM_ARRAY_TASK_ID="0", SLURM_ARRAY_TASK_COUNT="16")
    ran, skipped, failed, n = 0, [], [], 0
    for block in blocks(os.path.join(root, "README.md")):
        for cmd in block:
            n += 1
            if not cmd or cmd.startswith("#"):
                continue
            if cmd.startswith("B="):
                env["B"] = cmd[2:].split()[0]
                continue
            why = why_skip(cmd)
            if why:
                skipped.append((f"readme_line_{n}", f"{cmd}  ({why})"))
                continue
            p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=d, env=env,
                               capture_output=True, text=True, timeout=600)
            ran += 1
            if p.returncode != 0:
                failed.append(f"{cmd}\n  exit {p.returncode}; stderr: {p.stderr.strip()[-600:]}")
    # The samples are what their generator writes.
    gen = os.path.join(d, "samples")
    os.makedirs(gen)
    subprocess.run([sys.executable, os.path.join(root, "tools/make-samples.py"), gen], check=True,
                   cwd=root)
    for name in sorted(os.listdir(gen)):
        if not filecmp.cmp(os.path.join(gen, name), os.path.join(root, "data/samples", name),
                           shallow=False):
            failed.append(f"data/samples/{name} differs from what tools/make-samples.py writes")
    # As cmocka reports, so that tools/test-summary.sh counts them.
    print(f"README commands: {ran} run, {len(skipped)} skipped, {len(failed)} failed")
    for name, s in skipped:
        print(f"  {name}: {s}")
    for f in failed:
        print(f"FAILED: {f}")
    print(f"[  PASSED  ] {ran - len(failed)} test(s).")
    if failed:
        print(f"[  FAILED  ] {len(failed)} test(s).")
    if skipped:
        print(f"[  SKIPPED ] {len(skipped)} test(s), listed below:")
        for name, _ in skipped:
            print(f"[  SKIPPED ] {name}")
    shutil.rmtree(d)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
