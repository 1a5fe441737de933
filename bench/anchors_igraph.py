"""The python-igraph anchor: its own edge-list reader, Graph.bfs,
Graph.pagerank (PRPACK, solved exactly: checked loosely) and
Graph.connected_components with igraph's connectivity cache dropped before
each timed run, single-threaded.
"""

import numpy as np

from anchors_base import Anchor, check_cc, now


class IGraphAnchor(Anchor):
    name = "igraph"
    bfs_method = "Graph.bfs"
    pr_method = "Graph.pagerank (PRPACK, solved exactly)"
    pr_check = "loose"
    cc_method = "Graph.connected_components"

    def threads_used(self, algorithm):
        return 1

    def versions(self):
        import igraph
        return {"igraph": igraph.__version__}

    def build(self):
        import igraph as ig
        t0 = now()
        g = ig.Graph.Read_Edgelist(self.spec["graph"], directed=False)
        if g.vcount() < self.n:
            g.add_vertices(self.n - g.vcount())
        self.g = g
        return now() - t0, None, "Graph.Read_Edgelist"

    def bfs(self, s):
        return self.g.bfs(s)

    def bfs_distances(self, res, s):
        vids, layers, _ = res
        dist = np.full(self.n, -1, np.int64)
        vids = np.asarray(vids, np.int64)
        layers = np.asarray(layers, np.int64)
        for level in range(len(layers) - 1):
            dist[vids[layers[level]:layers[level + 1]]] = level
        return dist

    fixed_iterations = False  # PRPACK takes no tolerance

    def pagerank(self, tol, max_iter):
        x = self.g.pagerank(damping=self.spec["alpha"])
        return np.asarray(x), None, None

    def cc(self):
        return self.g.connected_components().membership

    def run_cc(self):
        # igraph caches "is connected" on the graph, and a connected graph's
        # components then come back in O(n) without a search: drop the cache
        # (untimed) before every timed run by adding and deleting a vertex.
        def fresh_cc():
            self.g.add_vertices(1)
            self.g.delete_vertices([self.g.vcount() - 1])
            t0 = now()
            labels = self.cc()
            self._cc_times.append(now() - t0)
            return labels

        self._cc_times = []
        _, labels = self.timer.repeat(fresh_cc, self.spec["repeat"])
        labels = np.asarray(labels)
        return {"times_s": self._cc_times, "method": self.cc_method + " (cache dropped before each run)",
                "threads": 1, "components": int(np.unique(labels).size), "check": check_cc(labels, self.spec)}
