#!/usr/bin/env python3
"""nic_queued.py - did a message wait for its sender's NIC in a LogGOPSim run? Reads the
run's timeline (LogGOPSim -V FILE) and prints 1 if some rank started a send exactly when
its NIC became free from the previous one (the send was queued behind it), else 0.

LogGOPSim sends a rank's messages one after the other through its NIC (a message of s
bytes keeps it busy g + (s-1) G: LogGOPSim.cpp, nextgs); collsim's flow models share the host link among
the messages in flight instead (issue 24 adds a NIC model). The two agree where no
message ever waits for its NIC, and that is where the corpus test compares their times.
usage: nic_queued.py TIMELINE G g
"""
import sys


def main():
    path, G, g = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    free = {}  # rank -> the time its NIC became free after its last send
    queued = 0
    rows = []
    for line in open(path):
        f = line.rstrip(";\n").split()
        if f and f[0] == "transmission":  # transmission src dst start arrival size ...
            rows.append((int(f[3]), int(f[1]), int(f[5])))
    for start, src, size in sorted(rows):
        if src in free and start == free[src]:
            queued = 1
        free[src] = start + g + max(size - 1, 0) * G
    print(queued)


if __name__ == "__main__":
    main()
