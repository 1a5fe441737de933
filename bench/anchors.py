"""The anchors: the libraries libgraph is measured against, one class each.

bench/run starts this file once per (graph, anchor), in its own process, as

    python bench/anchors.py SPEC.json RESULT.json

so an anchor that runs out of memory, crashes or hangs costs one row of the
report, not the run, and each one starts with a clean heap.  SPEC says which
anchor, which edge-list file (the same file libgraph read), the thread count,
the BFS sources (libgraph's own, from its --json line), the repeat count, and
libgraph's answers to check against.  RESULT gets, per algorithm, the times,
the method, and whether the answer agrees.

What each anchor times (and nothing else; conversions for the checks are
outside the timed regions):

  build     the .el file -> the anchor's graph object.  Anchors with their own
            reader use it (igraph's Graph.Read_Edgelist); the others parse the
            file with pandas' C reader (its share is reported as parse_s) and
            build from the numpy arrays.
  bfs       one search per source, each timed alone.
  pagerank  one full solve from the uniform start (setup included), repeated.
  cc        one full labelling, repeated.

Every anchor builds the *undirected* graph of the file: each line u v is the
edge {u, v}; vertices are 0..n-1 with n from libgraph (max id + 1).

The anchors live one library a file, over the common Anchor class and the
agreement checks of anchors_base.py: anchors_networkx.py, anchors_scipy.py,
anchors_igraph.py, anchors_networkit.py, anchors_graphblas.py and
anchors_libgraph.py (libgraph's own Python module).  This file holds the
registry (ANCHORS, and MODULES, which bench/run reads to tell which are
installed) and the worker's main.
"""

import json
import os
import resource
import sys

from anchors_graphblas import GraphBLASAnchor
from anchors_igraph import IGraphAnchor
from anchors_libgraph import LibgraphPythonAnchor
from anchors_networkit import NetworKitAnchor
from anchors_networkx import NetworkXAnchor
from anchors_scipy import SciPyAnchor

# ------------------------------------------------------------- registry --

ANCHORS = {a.name: a for a in (NetworkXAnchor, SciPyAnchor, IGraphAnchor, NetworKitAnchor, GraphBLASAnchor,
                               LibgraphPythonAnchor)}

# The module each anchor needs, for "is it installed?" without importing it.
MODULES = {"networkx": "networkx", "scipy": "scipy", "igraph": "igraph",
           "networkit": "networkit", "graphblas": "graphblas", "libgraph-py": "libgraph"}


# What each anchor imports, loaded before any clock starts.
IMPORTS = {"networkx": ["networkx"], "scipy": ["scipy.sparse", "scipy.sparse.csgraph"],
           "igraph": ["igraph"], "networkit": ["networkit"], "graphblas": ["graphblas"],
           "libgraph-py": ["libgraph"]}


def run(spec):
    import importlib
    for mod in ["pandas"] + IMPORTS[spec["tool"]]:
        importlib.import_module(mod)
    anchor = ANCHORS[spec["tool"]](spec)
    result = {"tool": anchor.name, "graph": spec["graph_name"], "versions": anchor.versions()}
    t, parse, method = anchor.build()
    result["build"] = {"times_s": [t], "parse_s": parse, "method": method}
    for algo in spec["algorithms"]:
        try:
            result[algo] = getattr(anchor, "run_" + algo)()
        except MemoryError:
            result[algo] = {"error": "out of memory"}
        except Exception as e:  # one algorithm's failure is a row, not a crash
            result[algo] = {"error": f"{type(e).__name__}: {e}"}
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return result


def main(argv):
    with open(argv[1]) as f:
        spec = json.load(f)
    try:
        result = run(spec)
    except MemoryError:
        result = {"tool": spec["tool"], "graph": spec["graph_name"], "error": "out of memory"}
    except Exception as e:
        import traceback
        traceback.print_exc()
        result = {"tool": spec["tool"], "graph": spec["graph_name"], "error": f"{type(e).__name__}: {e}"}
    tmp = argv[2] + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
