"""The graphs of a bench/run: --graphs parsed (kron:S[:EF], urand:S[:EF], a
bundled graph, or a .el file), the default lists, and each generated graph's
edge list written once into bench/.cache by `lgraph generate` (without the
header line libgraph writes, which the anchors' readers do not skip)."""

import os
import re
import shutil
import sys

from harness.common import BUNDLED, CACHE, GIB, ROOT, log
from harness.procs import mem_total, run_cmd


# ---------------------------------------------------------------- graphs --

SPEC_RE = re.compile(r"^(kron|urand):(\d+)(?::(\d+))?$")


class Graph:
    def __init__(self, name, path, family, scale=None):
        self.name, self.path, self.family, self.scale = name, path, family, scale
        self.n = self.arcs = self.edges = None
        self.generate_note = None

    def as_dict(self):
        return {k: getattr(self, k) for k in ("name", "path", "family", "scale", "n", "arcs", "edges")}


def parse_graphs(text):
    graphs = []
    for item in [t.strip() for t in text.split(",") if t.strip()]:
        m = SPEC_RE.match(item)
        if m:
            family, scale = m.group(1), int(m.group(2))
            ef = m.group(3)
            stem = f"{family}{scale}" + (f"ef{ef}" if ef else "")
            graphs.append(Graph(item, os.path.join(CACHE, stem + ".el"), family, scale))
        elif item in BUNDLED:
            graphs.append(Graph(item, BUNDLED[item], "real"))
        elif os.path.exists(item) and item.endswith(".el"):
            graphs.append(Graph(os.path.basename(item)[:-3], os.path.abspath(item), "real"))
        else:
            sys.exit(f"bench/run: unknown graph '{item}' (want kron:SCALE[:EF], urand:SCALE[:EF], "
                     f"{', '.join(BUNDLED)}, or a .el file)")
    return graphs


def default_graphs(quick):
    if quick:
        return "kron:14,urand:14,kron:16,facebook"
    # kron:22 needs ~4 GiB in libgraph and SciPy, more while generating: only
    # on machines with room for it next to the anchors.
    big = ",kron:22" if mem_total() >= 16 * GIB else ""
    return "kron:18,kron:20,urand:20" + big + ",facebook"


def ensure_file(g, lgraph, seed):
    if g.family == "real" or os.path.exists(g.path):
        return
    os.makedirs(CACHE, exist_ok=True)
    log(f"  generating {g.name} -> {os.path.relpath(g.path, ROOT)}")
    tmp = g.path[:-3] + ".tmp.el"
    rc, out, err, _, _ = run_cmd([lgraph, "generate", g.name, tmp, "--seed", str(seed)])
    if rc != 0:
        raise RuntimeError(f"lgraph generate {g.name} failed: {err.strip() or out.strip()}")
    strip_header(tmp, g.path)


def strip_header(src, dst):
    """Copies the edge list src to dst without the header line libgraph
    writes first (`# libgraph edge list: ...`): GAPBS, igraph and the pandas
    readers of the anchors take bare "u v" lines only."""
    with open(src, "rb") as f, open(dst, "wb") as out:
        first = f.readline()
        if not first.startswith(b"# libgraph edge list:"):
            out.write(first)
        shutil.copyfileobj(f, out, 1 << 24)
    os.remove(src)
