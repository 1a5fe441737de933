#!/usr/bin/env python3
"""Bytes sent between MPI ranks by libgraph_dist, measured, against the 1D model.

    bench/dist_traffic.py [--lgraph build/lgraph] [--graphs kron:16,urand:16]
                          [--ranks 2,4,8] [--mpiexec "mpiexec --oversubscribe"]

Runs `lgraph ALGO GRAPH --distributed --json` under mpiexec for each graph,
rank count and algorithm, and prints a Markdown table of what the JSON line
reports (bytes every rank sent, summed; rounds) beside the model:

* PageRank: each rank receives, every iteration, the 8-byte contribution of
  every ghost its in-arcs read; the 1D bound (an allgather of the whole
  vector) is 8 x |V| x (P - 1) / P a rank.
* BFS: top-down levels send 4 bytes a newly reached ghost to its owner (at
  most 4 bytes a frontier arc that crosses ranks); bottom-up levels gather the
  frontier bitmap, |V| / 8 bytes a level, (P - 1) / P of it from others.
* CC: 12 bytes (slot + label) a changed label a reader holds.

Byte counts do not depend on the machine; times do, and oversubscribed ranks
(more ranks than cores) time nothing useful, so none are printed.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys


def run(args, mpiexec, np_, graph, algo):
    cmd = shlex.split(mpiexec) + ["-n", str(np_), args.lgraph, algo, graph, "--distributed",
                                  "--json", "--threads", "1", "--top", "0"]
    env = dict(os.environ, OMPI_MCA_mpi_yield_when_idle="1")
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if out.returncode not in (0, 3) or not lines:
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    return json.loads(lines[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lgraph", default="build/lgraph")
    p.add_argument("--graphs", default="kron:16,urand:16")
    p.add_argument("--ranks", default="2,4,8")
    p.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    args = p.parse_args()
    print("| graph | ranks | algorithm | rounds | bytes a rank a round | x |V| | model |")
    print("|---|---|---|---|---|---|---|")
    for graph in args.graphs.split(","):
        for np_ in (int(x) for x in args.ranks.split(",")):
            for algo in ("pagerank", "bfs", "cc"):
                j = run(args, args.mpiexec, np_, graph, algo)
                n, rounds = j["vertices"], max(j["rounds"], 1)
                per = j["bytes_total"] / np_ / rounds
                if algo == "pagerank":
                    model = f"allgather bound {8 * n * (np_ - 1) / np_:.0f} ({per / (8 * n * (np_ - 1) / np_):.2f} of it)"
                elif algo == "bfs":
                    model = f"bitmap {n / 8 * (np_ - 1) / np_:.0f} a bottom-up level"
                else:
                    model = "12 bytes a changed label a reader"
                print(f"| {graph} | {np_} | {algo} | {j['rounds']} | {per:.0f} | {per / n:.3f} | {model} |")


if __name__ == "__main__":
    main()
