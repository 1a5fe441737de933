"""The NetworkX anchor: a networkx.Graph built from the edge list,
single_source_shortest_path_length, nx.pagerank (NetworkX's own quantity:
checked strictly) and connected_components, all single-threaded.
"""

import numpy as np

from anchors_base import Anchor, now, read_el


class NetworkXAnchor(Anchor):
    name = "networkx"
    bfs_method = "single_source_shortest_path_length"
    pr_method = "nx.pagerank (SciPy inside), tol 1e-6"
    pr_check = "strict"
    cc_method = "connected_components (BFS)"

    def threads_used(self, algorithm):
        return 1

    def versions(self):
        import networkx
        return {"networkx": networkx.__version__}

    def build(self):
        import networkx as nx
        t0 = now()
        s, d = read_el(self.spec["graph"])
        parse = now() - t0
        g = nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(zip(s.tolist(), d.tolist()))
        self.g = g
        return now() - t0, parse, "pandas + Graph.add_edges_from"

    def bfs(self, s):
        import networkx as nx
        return nx.single_source_shortest_path_length(self.g, s)

    def bfs_distances(self, res, s):
        dist = np.full(self.n, -1, np.int64)
        dist[np.fromiter(res.keys(), np.int64, len(res))] = np.fromiter(res.values(), np.int64, len(res))
        return dist

    fixed_iterations = False  # nx.pagerank raises when it does not converge

    def pagerank(self, tol, max_iter):
        import networkx as nx
        pr = nx.pagerank(self.g, alpha=self.spec["alpha"], tol=tol, max_iter=max_iter)
        x = np.fromiter((pr[v] for v in range(self.n)), np.float64, self.n)
        # nx.pagerank does not say how many iterations it took.
        return x, None, None

    def cc(self):
        import networkx as nx
        labels = np.empty(self.n, np.int64)
        for i, comp in enumerate(nx.connected_components(self.g)):
            labels[list(comp)] = i
        return labels
