#!/usr/bin/env python3
"""check_links.py - relative links in Markdown files resolve inside the repository.

    python3 scripts/check_links.py [--root DIR] FILE.md [...]

For every inline link [text](target) whose target is not a URL (http:, https:, mailto:)
or a pure anchor (#...), the path part (before any '#') must name an existing file or
directory, relative to the linking file, that lies inside the repository (the parent of
scripts/, or DIR). Absolute paths are refused. Each bad link is reported as FILE:LINE: target
(reason); exit 1 if there is any, 0 otherwise. Fenced code blocks are skipped. Standard
library only.
"""
import os
import re
import sys

ROOT = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def bad_links(path, root):
    """(line, target, reason) for every bad link of one file."""
    out = []
    base = os.path.dirname(os.path.abspath(path))
    fenced = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for target in LINK.findall(line):
                if re.match(r"^(https?:|mailto:|#)", target):
                    continue
                part = target.split("#", 1)[0]
                if os.path.isabs(part):
                    out.append((n, target, "absolute path; link inside the repository"))
                    continue
                full = os.path.realpath(os.path.join(base, part))
                if full != root and not full.startswith(root + os.sep):
                    out.append((n, target, "points outside the repository"))
                elif not os.path.exists(full):
                    out.append((n, target, "no such file"))
    return out


def main(argv):
    root = ROOT
    if argv[:1] == ["--root"]:
        if len(argv) < 2 or not os.path.isdir(argv[1]):
            print("check_links.py: --root needs an existing directory", file=sys.stderr)
            return 2
        root, argv = os.path.realpath(argv[1]), argv[2:]
    if not argv:
        print("usage: check_links.py [--root DIR] FILE.md [...]", file=sys.stderr)
        return 2
    fail = 0
    for path in argv:
        for n, target, reason in bad_links(path, root):
            print(f"{path}:{n}: {target} ({reason})")
            fail = 1
    return fail


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
