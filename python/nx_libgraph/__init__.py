"""nx_libgraph: libgraph as a NetworkX backend.

Installed with libgraph, it registers itself with NetworkX (3.2+) through
the entry points ``networkx.backends`` (``nx_libgraph.interface``) and
``networkx.backend_info`` (``nx_libgraph._info.get_info``), so that

    nx.pagerank(G, backend="libgraph")

or ``nx.config.backend_priority = ["libgraph"]`` runs NetworkX's calls on
libgraph's kernels, on the CPU or the GPU (``nx.config.backends.libgraph.device``).
This package imports neither libgraph nor its extension until a backend
function runs: NetworkX reads ``get_info`` at import time.
"""

from ._info import get_info

__all__ = ["get_info"]
