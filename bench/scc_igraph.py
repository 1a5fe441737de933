#!/usr/bin/env python3
"""bench/scc_igraph.py FILE.el - igraph's strongly connected components on a
directed edge list (as bench_sssp --scc --write writes it): the median and
the best of 5 calls, and the number of components (bench/paths_anchors.sh)."""

import sys
import time

import igraph
import numpy as np


def main():
    with open(sys.argv[1]) as f:
        header = f.readline()
    n = int(header.split(",")[1].split()[0]) if header.startswith("#") else None
    edges = np.loadtxt(sys.argv[1], dtype=np.int64, comments="#")
    g = igraph.Graph(n=n or int(edges.max()) + 1, edges=edges, directed=True)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        c = g.connected_components(mode="strong")
        times.append(time.perf_counter() - t0)
    times.sort()
    print(f"row: igraph {igraph.__version__} scc components={len(c)} median_ms={1e3 * times[2]:.1f} "
          f"min_ms={1e3 * times[0]:.1f}")


if __name__ == "__main__":
    main()
