#!/usr/bin/env python3
"""independent_sends.py - has a rank of a GOAL file two or more sends without any
`requires`? Prints 1 or 0.

Such sends may all start at time 0. collsim starts them together (they share the host
link); LogGOPSim, observed on Schedgen's linear_alltoall and n-way dissemination, starts
each of them only after the rank's previous message completed. The corpus test compares
the two simulators' times only on files where this prints 0 (and nic_queued.py too).
usage: independent_sends.py FILE.goal
"""
import re
import sys


def main():
    found = 0
    sends, deps = set(), set()
    for line in open(sys.argv[1]):
        line = re.sub(r"//.*", "", line).strip()
        if line.startswith("rank "):
            sends, deps = set(), set()
        elif line == "}":
            if len(sends - deps) >= 2:
                found = 1
        else:
            m = re.match(r"(\w+):\s*send\b", line)
            if m:
                sends.add(m.group(1))
            m = re.match(r"(\w+)\s+i?requires\s+\w+$", line)
            if m:
                deps.add(m.group(1))
    print(found)


if __name__ == "__main__":
    main()
