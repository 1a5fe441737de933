"""What the parts of bench/run share: the repository's paths (ROOT, bench/ as
HERE, the cache bench/.cache, the bundled graphs, the anchors' requirements
file), the names of the anchors and algorithms, and log()."""

import os

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(HERE)
REQUIREMENTS = os.path.join(ROOT, "python", "requirements-bench.txt")
CACHE = os.path.join(HERE, ".cache")
BUNDLED = {"facebook": os.path.join(ROOT, "tests", "data", "facebook_combined.el"),
           "oregon": os.path.join(ROOT, "tests", "data", "oregon1_010331.el")}
ALL_ANCHORS = ["libgraph-py", "networkx", "scipy", "igraph", "networkit", "graphblas", "gapbs"]
ALGORITHMS = ["bfs", "pagerank", "cc"]
GIB = 1 << 30


def log(msg):
    print(msg, flush=True)
