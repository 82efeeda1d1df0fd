#!/usr/bin/env python3
"""check_generated.py - the generated sections of the results READMEs are up to date.

A generated section is

    <!-- BEGIN GENERATED: python3 scripts/SOMETHING.py ARGS -->
    ...the command's standard output, verbatim...
    <!-- END GENERATED -->

For every README.md under results/ (or the files given with --file), each command is run
from the repository root and its output compared with the lines between the markers.

    python3 scripts/check_generated.py                 check; exit 1 at the first difference
    python3 scripts/check_generated.py --write         rewrite the sections from the commands
    python3 scripts/check_generated.py --file F [...]  only these files (a copy anywhere is
                                                       fine: commands still run from the root)

Only `python3 scripts/<name>.py ...` commands are run (no shell); anything else is an
error naming the file and line. Standard library only.
"""
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = re.compile(r"^<!-- BEGIN GENERATED: (.*) -->$")
END = "<!-- END GENERATED -->"
SCRIPT = re.compile(r"^scripts/[A-Za-z0-9_]+\.py$")


class Bad(Exception):
    pass


def readmes():
    out = []
    for d, dirs, files in os.walk(os.path.join(ROOT, "results")):
        dirs.sort()
        out += [os.path.join(d, f) for f in files if f == "README.md"]
    return sorted(out)


def sections(path, lines):
    """[(begin index, end index, command)] of one file; Bad on unbalanced markers."""
    out, start = [], None
    for i, line in enumerate(lines):
        m = BEGIN.match(line)
        if m:
            if start is not None:
                raise Bad("%s:%d: BEGIN GENERATED inside the section opened at line %d"
                          % (path, i + 1, start[0] + 1))
            start = (i, m.group(1).strip())
        elif line.strip() == END:
            if start is None:
                raise Bad("%s:%d: END GENERATED without a BEGIN" % (path, i + 1))
            out.append((start[0], i, start[1]))
            start = None
        elif "GENERATED" in line and line.lstrip().startswith("<!--"):
            raise Bad("%s:%d: malformed marker; allowed: '<!-- BEGIN GENERATED: python3 "
                      "scripts/NAME.py ARGS -->' and '%s'" % (path, i + 1, END))
    if start is not None:
        raise Bad("%s:%d: BEGIN GENERATED never closed by '%s'" % (path, start[0] + 1, END))
    return out


def run(cmd, where, cache):
    if cmd in cache:
        return cache[cmd]
    argv = shlex.split(cmd)
    if len(argv) < 2 or argv[0] != "python3" or not SCRIPT.match(argv[1]):
        raise Bad("%s: command %r: only 'python3 scripts/<name>.py ARGS' is allowed"
                  % (where, cmd))
    p = subprocess.run([sys.executable] + argv[1:], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        raise Bad("%s: %r exited %d: %s" % (where, cmd, p.returncode, p.stderr.strip()[-500:]))
    cache[cmd] = p.stdout.rstrip("\n").split("\n") if p.stdout.strip() else []
    return cache[cmd]


def process(path, write, cache):
    """None if up to date (or rewritten), else the first difference."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    rel = os.path.relpath(path, ROOT) if path.startswith(ROOT) else path
    new, last = [], 0
    for b, e, cmd in sections(rel, lines):
        want = run(cmd, "%s:%d" % (rel, b + 1), cache)
        have = lines[b + 1:e]
        if have != want and not write:
            for k in range(max(len(have), len(want))):
                h = have[k] if k < len(have) else "(end of section)"
                w = want[k] if k < len(want) else "(end of output)"
                if h != w:
                    return ("%s:%d: generated section of %r differs\n    README: %s\n"
                            "    output: %s\n(rerun: python3 scripts/check_generated.py --write)"
                            % (rel, b + 2 + k, cmd, h, w))
        new += lines[last:b + 1] + want
        last = e
    new += lines[last:]
    if write and new != lines:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(new))
    return None


def main(argv):
    write, files, it = False, [], iter(argv[1:])
    for a in it:
        if a == "--write":
            write = True
        elif a == "--file":
            f = next(it, None)
            if f is None:
                sys.exit("check_generated.py: --file needs a path")
            files.append(os.path.abspath(f))
        else:
            sys.exit("check_generated.py: unknown argument %r; allowed: --write, --file F" % a)
    files = files or readmes()
    cache, n = {}, 0
    try:
        for path in files:
            diff = process(path, write, cache)
            if diff:
                print("check_generated.py: " + diff)
                return 1
            n += 1
    except (Bad, OSError, subprocess.TimeoutExpired) as e:
        print("check_generated.py: %s" % e)
        return 1
    print("ok %s: %d README(s), %d command(s)" % ("rewrote" if write else "generated sections",
                                                  n, len(cache)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
