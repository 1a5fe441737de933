"""Running one tool for bench/run: run_cmd gives its exit status, output, peak
RSS and whether it timed out, and records the machine's busy time meanwhile,
so take_interference() says how many cores other processes kept busy;
wait_quiet() waits for idle cores; the machine's memory, and each tool's
estimated peak memory (MEMORY_MODEL), to skip what cannot fit."""

import os
import subprocess
import tempfile
import threading
import time

from harness.common import GIB


# ------------------------------------------------------------ processes --

CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_busy_s():
    """Seconds of CPU time the whole machine has spent busy since boot."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        # user nice system idle iowait irq softirq steal
        return (v[0] + v[1] + v[2] + v[5] + v[6] + (v[7] if len(v) > 7 else 0)) / CLK_TCK
    except (OSError, ValueError, IndexError):
        return None


def run_cmd(argv, env=None, timeout=None):
    """Runs argv; returns (rc, stdout, stderr, peak RSS MiB, timed out,
    others), where others is how many cores *other* processes kept busy on
    average while it ran (the machine's busy time less the child's own CPU
    time, over the wall time): a measure of interference."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        busy0, t0 = cpu_busy_s(), time.monotonic()
        p = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        killed = []

        def kill():
            killed.append(True)
            p.kill()

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        if timer:
            timer.cancel()
        wall, busy1 = time.monotonic() - t0, cpu_busy_s()
        if busy0 is not None and busy1 is not None:
            RUN_STATS.append((busy1 - busy0, usage.ru_utime + usage.ru_stime, wall))
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (p.returncode, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                usage.ru_maxrss / 1024.0, bool(killed))


# (machine busy s, child CPU s, wall s) of each command since the list was
# last cleared.
RUN_STATS = []
# /proc/stat and rusage count in clock ticks: below this much wall time the
# ratio is noise.
MIN_WALL_FOR_INTERFERENCE_S = 0.5


def take_interference():
    """Cores other processes kept busy, on average, over the commands run
    since the last call (None when they ran too briefly to tell)."""
    busy = sum(x[0] for x in RUN_STATS)
    mine = sum(x[1] for x in RUN_STATS)
    wall = sum(x[2] for x in RUN_STATS)
    RUN_STATS.clear()
    if wall < MIN_WALL_FOR_INTERFERENCE_S:
        return None
    return round(max(0.0, busy - mine) / wall, 2)


def wait_quiet(limit_s, threshold=0.25):
    """Waits (up to limit_s) until other processes use < threshold cores,
    sampled over a second: numbers taken while someone else computes are
    the ones these VMs get wrong.  Returns the last sample."""
    if limit_s <= 0:
        return None
    deadline = time.monotonic() + limit_s
    while True:
        b0 = cpu_busy_s()
        time.sleep(1.0)
        b1 = cpu_busy_s()
        load = (b1 - b0) if b0 is not None and b1 is not None else 0.0
        if load < threshold or time.monotonic() >= deadline:
            return load
        time.sleep(2.0)


def mem_available():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 * GIB


def mem_total():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 * GIB


# Rough peak memory of each tool, bytes per undirected edge and per vertex,
# measured on kron:16-20 here with margin; used to skip what cannot fit.
MEMORY_MODEL = {
    "libgraph": (40, 48), "networkx": (700, 1200), "scipy": (110, 64), "igraph": (90, 120),
    "networkit": (90, 120), "graphblas": (110, 120), "gapbs": (48, 48), "libgraph-py": (40, 48),
}


def estimate_bytes(tool, n, edges):
    per_edge, per_vertex = MEMORY_MODEL[tool]
    return per_edge * edges + per_vertex * n
