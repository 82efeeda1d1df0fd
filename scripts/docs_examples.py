#!/usr/bin/env python3
"""docs_examples.py - runs every shell example of README.md and docs/*.md, as written.

Each ```sh block of a Markdown file is split into commands (a line, with its backslash
continuations; in a block that shows a session, only the lines starting with "$ ").
The commands of one file run in order, in a fresh copy of the repository (the files git
tracks, as a fresh clone has them), with `collsim` and `build/collsim` being the binary
under test, so that an example may use only what the repository ships or what an
earlier example of the same file created.

What a command expects is written where the reader sees it, in its trailing comment:
  # fails ...  / # refused ...   the command must exit with an error (status 1..125)
  # takes ~N s|min|h ...         a long command: it passes when it has not failed after
                                 --budget seconds (it is then stopped); its first
                                 seconds load the scenario or the inputs, where docs drift
Everything else must exit 0, each of its processes within --timeout CPU seconds (a
limit the machine's load does not change), the whole within --wall seconds (a guard
against a command that hangs). A block preceded by the line
  <!-- docs-examples: skip REASON -->
is not run (REASON is printed): `make test` cannot run inside `make test`, a Slurm
submission needs a cluster (tests/cli/slurm.sh runs one).

usage: docs_examples.py --collsim BIN [--root DIR] [--timeout S] [--wall S] [--budget S] [-j N]
                        [--list] [FILE.md ...]   (default: README.md docs/*.md of --root)
Prints one line per command ("ok", "FAIL", "skip") and a count; exit 1 when one failed.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = re.compile(r"<!--\s*docs-examples:\s*skip\s+(.*?)\s*-->")
FAILS = re.compile(r"#\s*(fails|refused)\b")
TAKES = re.compile(r"#.*\btakes\s+((about\s+|~)?[0-9.]+\s*(s|min|h)|hours)\b")


def commands_of_block(lines):
    """(line number, command) pairs of one ```sh block given as (number, text) pairs."""
    session = any(text.startswith("$ ") for _, text in lines)
    out, cmd, first = [], None, 0
    for num, text in lines:
        if cmd is None:
            if session:
                if not text.startswith("$ "):
                    continue
                text = text[2:]
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            cmd, first = text, num
        else:
            cmd += "\n" + text
        if not text.rstrip().endswith("\\"):
            out.append((first, cmd))
            cmd = None
    if cmd is not None:
        out.append((first, cmd))
    return out


def examples(path):
    """(line, command, skip reason or None) for every command of every ```sh block."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, block, skip, prev = [], None, None, ""
    for num, text in enumerate(lines, 1):
        stripped = text.strip()
        if block is None and stripped == "```sh":
            m = SKIP.search(prev)
            skip = m.group(1) if m else None
            block = []
        elif block is not None and stripped.startswith("```"):
            out += [(n, c, skip) for n, c in commands_of_block(block)]
            block = None
        elif block is not None:
            block.append((num, text))
        if stripped:
            prev = stripped
    if block is not None:
        raise SystemExit(f"{path}: a ```sh block is not closed")
    return out


def copy_repo(root, dest):
    """The files of a fresh clone: git's tracked (and untracked, not ignored) files."""
    try:
        names = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard",
                                "-z"], check=True, capture_output=True).stdout
        names = [n for n in names.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = None
    if not names:
        shutil.copytree(root, dest, symlinks=True,
                        ignore=shutil.ignore_patterns(".git", "build*"))
        return
    for name in names:
        src = os.path.join(root, name)
        if not os.path.lexists(src):
            continue  # deleted in the work tree, not yet committed
        dst = os.path.join(dest, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst, follow_symlinks=False)


class Running:
    """The examples' process groups in flight, ended when this script is stopped."""
    groups = set()
    stopping = False

    @classmethod
    def stop(cls, signum, _frame):
        cls.stopping = True  # the workers start nothing more
        for pgid in list(cls.groups):
            try:
                os.killpg(pgid, signal.SIGTERM)
            except OSError:
                pass
        sys.exit(128 + signum)


def cpu_limit(seconds):
    """A preexec function: every process of the command may use `seconds` of CPU (SIGXCPU
    then, SIGKILL 5 s later). CPU time, unlike wall time, does not depend on how loaded
    the machine is, so an example's verdict does not either."""
    def limit():
        soft = max(1, int(seconds + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))
    return limit


def run(cmd, cwd, env, seconds, cpu_seconds=None):
    """(status or None when still running after `seconds` of wall time, output); with
    cpu_seconds, each of its processes is stopped after that much CPU (SIGXCPU)."""
    p = subprocess.Popen(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True,
                         preexec_fn=cpu_limit(cpu_seconds) if cpu_seconds else None)
    Running.groups.add(p.pid)
    try:
        return wait(p, seconds)
    finally:
        Running.groups.discard(p.pid)


def out_of_cpu(status):
    """The command (bash itself, or the command bash ran last) died of SIGXCPU."""
    return status in (-signal.SIGXCPU, 128 + signal.SIGXCPU)


def wait(p, seconds):
    try:
        out, _ = p.communicate(timeout=seconds)
        return p.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            out, _ = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
        return None, out.decode(errors="replace")


def verdict(cmd, status, seconds, wall):
    """None when the command did what its comment says, else what went wrong."""
    if out_of_cpu(status) and not TAKES.search(cmd):
        return (f"used more than {seconds:.0f} CPU s (--timeout); a long example says "
                "'# takes ~N min'")
    if FAILS.search(cmd):
        if status is None:
            return f"still running after {wall:.0f} s of wall time (--wall), expected to fail"
        if status == 0:
            return "exit 0, but the example says it fails"
        if status > 125:
            return f"exit {status} (a crash or a signal), expected an error"
        return None
    if TAKES.search(cmd):
        return None if status in (0, None) else f"exit {status}"
    if status is None:
        return (f"still running after {wall:.0f} s of wall time (--wall), waiting for "
                "something that never came?")
    return None if status == 0 else f"exit {status}"


def run_file(md, a):
    """The report lines and counts of one Markdown file's examples."""
    lines, counts = [], {"ok": 0, "fail": 0, "skip": 0}
    name = os.path.relpath(md, a.root)
    todo = examples(md)
    if a.list:
        return [f"{name}:{line}\t{cmd}" for line, cmd, _ in todo], counts
    with tempfile.TemporaryDirectory(prefix="docs-examples-") as tmp:
        repo, bindir = os.path.join(tmp, "repo"), os.path.join(tmp, "bin")
        os.makedirs(bindir)
        copy_repo(a.root, repo)
        os.makedirs(os.path.join(repo, "build"), exist_ok=True)
        for link in (os.path.join(bindir, "collsim"), os.path.join(repo, "build", "collsim")):
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(a.collsim, link)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                   COLLSIM_CACHE_DIR=os.path.join(tmp, "cache"), SCRATCH=os.path.join(tmp, "scratch"))
        for line, cmd, skip in todo:
            if Running.stopping:
                break
            where, short = f"{name}:{line}", cmd.split("\n")[0][:90]
            if skip:
                lines.append(f"skip {where}: {short}  ({skip})")
                counts["skip"] += 1
                continue
            long_one = TAKES.search(cmd) and not FAILS.search(cmd)
            seconds = a.budget if long_one else a.timeout
            wall_limit = a.budget if long_one else a.wall
            start = time.monotonic()
            status, out = run(cmd, repo, env, wall_limit, None if long_one else seconds)
            wall = time.monotonic() - start
            bad = verdict(cmd, status, seconds, wall_limit)
            if bad:
                counts["fail"] += 1
                lines.append(f"FAIL {where}: {short}\n     {bad}")
                lines.append("     | " + "\n     | ".join(out.rstrip().split("\n")[-12:]))
            else:
                counts["ok"] += 1
                note = " (long: stopped after the budget)" if status is None else ""
                lines.append(f"ok   {where}: {short}  [{wall:.1f} s]{note}")
    return lines, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--collsim", required=True, help="the collsim binary under test")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."),
                    help="the repository to copy (default: this script's)")
    ap.add_argument("--timeout", type=float, default=60,
                    help="CPU seconds per process of a command (machine load does not count)")
    ap.add_argument("--wall", type=float, default=None,
                    help="wall seconds before a command is stopped as hung (default 10 x "
                         "--timeout)")
    ap.add_argument("--budget", type=float, default=3,
                    help="seconds a '# takes ~N min' command runs before it is stopped")
    ap.add_argument("--list", action="store_true", help="print the commands, run nothing")
    ap.add_argument("-j", "--jobs", type=int, default=2,
                    help="files run at once, each in its own copy (default 2)")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.wall is None:
        a.wall = 10 * a.timeout
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, Running.stop)
    a.root = os.path.abspath(a.root)
    a.collsim = os.path.abspath(a.collsim)
    if not os.access(a.collsim, os.X_OK):
        raise SystemExit(f"docs_examples.py: --collsim {a.collsim}: not an executable")
    files = a.files or [os.path.join(a.root, "README.md")] + sorted(
        glob.glob(os.path.join(a.root, "docs", "*.md")))
    counts = {"ok": 0, "fail": 0, "skip": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        jobs = [pool.submit(run_file, os.path.abspath(md), a) for md in files]
        for job in jobs:  # in file order, each file's lines together
            lines, c = job.result()
            for line in lines:
                print(line)
            sys.stdout.flush()
            for k in counts:
                counts[k] += c[k]
    if a.list:
        return 0
    print(f"docs examples: {counts['ok']} ok, {counts['fail']} failed, {counts['skip']} "
          f"skipped, in {len(files)} files")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
