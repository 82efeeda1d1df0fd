#!/usr/bin/env python3
"""single_receive.py - do a GOAL file's messages all have one size, and does every rank
receive at most one message? Prints 1 or 0.

LogGOPSim keeps a sender's NIC busy g + (s-1) G per message of s bytes and starts its
next message only then; collsim's msg_gap spaces two injections of one port by a fixed
time and lets the messages share the link. With one message size s, a msg_gap of
g + (s-1) G makes collsim's injections LogGOPSim's; where every rank also receives at
most one message (one-to-many patterns: scatter, broadcast trees), nothing else differs,
and the corpus test compares the two simulators there (LogGOPSim also serializes a
receiver's messages, and charges its CPU for (s-1) G of each, which collsim does not).
usage: single_receive.py FILE.goal
"""
import re
import sys


def main():
    sizes, recvs = set(), {}
    rank = None
    for line in open(sys.argv[1]):
        line = re.sub(r"//.*", "", line).strip()
        m = re.match(r"rank\s+(\d+)", line)
        if m:
            rank = int(m.group(1))
            continue
        m = re.match(r"(?:\w+:\s*)?(send|recv)\s+(\d+)b", line)
        if m:
            sizes.add(int(m.group(2)))
            if m.group(1) == "recv":
                recvs[rank] = recvs.get(rank, 0) + 1
    print(1 if len(sizes) == 1 and max(recvs.values(), default=0) <= 1 else 0)


if __name__ == "__main__":
    main()
