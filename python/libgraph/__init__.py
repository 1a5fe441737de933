"""libgraph: fast graph analytics (BFS, PageRank, connected components, and
any of the library's algorithms by name: run, algorithms) on the CPU and on
AMD and NVIDIA GPUs.

    >>> import libgraph as lg
    >>> g = lg.Graph.from_edges([0, 1, 2], [1, 2, 0])
    >>> lg.bfs(g, 0)
    array([0, 1, 2], dtype=int32)

Arrays come back as numpy arrays when numpy is installed (views of
libgraph's memory, no copy), else as memoryviews.  Every function takes
``device=``: None (the default, see set_default_device), "auto" (a GPU
when one answers, a graph moving to it once its CPU calls have cost about
its upload; else the CPU), "cpu", "gpu", "gpu:N" or a Context.

Directedness follows one rule in every constructor and loader: a graph is
undirected unless directed=True, or the input records that it is directed
(a NetworkX DiGraph, a .lgb file, a "general" .mtx, the header line
libgraph writes in .el/.wel files).

The C extension is libgraph._libgraph; this package is a thin layer over it.
See docs/PYTHON.md.
"""

from . import _openmp

_waits = _openmp.bounded_waits()
try:
    from ._libgraph import (  # noqa: F401  (re-exported)
        MAX_VERTICES,
        Context,
        DeviceError,
        Error,
        FileFormatError,
        InternalError,
        InvalidArgumentError,
        NotConverged,
        Unbounded,
        OutOfMemoryError,
        UnsupportedError,
        __version__,
    )
    Context(device="cpu")  # starts LLVM's libomp, which reads the policy then
finally:
    _openmp.restore(_waits)
    del _waits
from ._graph import Graph, generate_edges
from . import _algorithms
from ._algorithms import *  # noqa: F401,F403  (its __all__: the algorithms' functions)
from ._device import get_default_device, set_default_device
from ._progress import get_progress, set_progress

__all__ = [
    "Graph",
    "Context",
    "generate_edges",
    *_algorithms.__all__,
    "set_default_device",
    "get_default_device",
    "set_progress",
    "get_progress",
    "Error",
    "InvalidArgumentError",
    "OutOfMemoryError",
    "DeviceError",
    "UnsupportedError",
    "FileFormatError",
    "NotConverged",
    "Unbounded",
    "InternalError",
    "MAX_VERTICES",
    "__version__",
]
