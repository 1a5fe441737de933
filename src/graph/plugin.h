/*
 * plugin.h - the boundary between libgraph.so and its GPU plugin.
 *
 * The core never links a GPU runtime.  The GPU backend lives in a plugin,
 * libgraph_cuda.so (src/kernels/hip/ built as CUDA) or libgraph_hip.so (the
 * same sources built by hipcc for AMD), that the core dlopens on the first
 * GPU context (src/graph/plugin.c says where it looks).  The plugin exports
 * one C symbol, LG_PLUGIN_ENTRY, of type lg_plugin_entry_fn: the core hands
 * it the services it lends (struct lg_plugin_host) and gets back the
 * plugin's table (struct lg_plugin).  Both sides check LG_PLUGIN_ABI_VERSION.
 *
 * This header is included by C (the core) and by C++ (the .hip sources), so
 * it holds plain structs and function pointers only.
 *
 * Rules the two sides keep:
 *  - The plugin reports errors only through host->error (which sets the
 *    calling thread's lg_last_error) and returns the status it gave;
 *    device allocation failures are LG_ERR_OUT_OF_MEMORY, every other
 *    runtime failure LG_ERR_DEVICE, with the runtime's message.
 *  - The plugin never prints, aborts or exits, and frees what it allocated
 *    on every path.
 *  - Arguments reach the plugin validated by the algorithm's entry point
 *    (src/algorithms/).
 *  - A graph's device copy (*graph->device_cache) belongs to the plugin; the
 *    core holds the graph's device lock for the whole call, so the plugin
 *    may fill the slot without further locking, and calls
 *    plugin->graph_free on it when the graph is freed.
 */
#ifndef LIBGRAPH_PLUGIN_H
#define LIBGRAPH_PLUGIN_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LG_PLUGIN_ABI_VERSION 8
#define LG_PLUGIN_ENTRY "lg_plugin_entry"

/* What the device a context opened is. */
struct lg_device_info {
    char name[128];   /* e.g. "NVIDIA H100 80GB HBM3"                               */
    char runtime[64]; /* e.g. "CUDA runtime 13.0, driver 13.0"                       */
    int device_id;
    int wave_size;       /* lanes per wave the kernels run with (LG_WAVE_SIZE)          */
    int hardware_wave;   /* the device's own wave width (differs when wave64 is emulated) */
    int multiprocessors; /* SMs / CUs                                                  */
    int64_t memory_bytes;
};

/* Services the core lends the plugin. */
struct lg_plugin_host {
    int abi_version;
    /* Sets the calling thread's lg_last_error and returns status. */
    lg_status_t (*error)(lg_status_t status, const char *fmt, ...);
    /* The core's allocator (so allocation-failure tests reach the plugin). */
    void *(*malloc)(size_t bytes);
    void (*free)(void *p);
    /* Runs fn(arg, i) for every i in [0, count) on the core's OpenMP
     * threads (at most `threads` of them) and returns when all are done:
     * the plugin's host-side copies share the CPU kernels' thread team
     * rather than start threads of their own. */
    void (*parallel)(int64_t count, int threads, void (*fn)(void *arg, int64_t i), void *arg);
};

/* A graph to build on the device (lg_graph_from_device_edges): edges in
 * device memory, and the build options resolved (validated by the core). */
struct lg_plugin_build {
    int64_t n, E;                 /* n < 0: one more than the largest id */
    const lg_vertex_t *src, *dst; /* device memory, E each */
    const float *weights;         /* device memory, or NULL */
    bool directed, add_reverse, drop_self_loops;
    lg_duplicates_t duplicates;
};

/* What it made: the CSR in host memory from host->malloc (the core's graph
 * takes it), its arc count, and the device copy (plugin->graph_free frees
 * it).  On LG_ERR_INVALID_ARGUMENT with bad_edge >= 0, the first invalid
 * edge and its values, for the core to word the message. */
struct lg_plugin_built {
    int64_t n; /* the vertices (b->n, or found) */
    lg_edge_t *offsets;
    lg_vertex_t *indices;
    float *weights;
    int64_t m;
    void *device_graph;
    int64_t bad_edge;
    lg_vertex_t bad_src, bad_dst;
    float bad_weight;
};

/* What the plugin exports. */
struct lg_plugin {
    int abi_version;
    const char *name; /* "cuda" or "hip" */
    /* Opens device device_id on `stream` (NULL = a stream of the plugin's
     * own); *state is the plugin's per-context state, the lg_exec.state its
     * kernels get. */
    lg_status_t (*open)(int device_id, void *stream, void **state, struct lg_device_info *info);
    void (*close)(void *state);
    /* Frees a graph's device copy (may be called with no context open). */
    void (*graph_free)(void *device_graph);
    /* lg_context_copy on the context's device and stream, synchronously. */
    lg_status_t (*copy)(void *state, void *dst, const void *src, size_t bytes);
    /* lg_graph_from_device_edges: builds on the device (NULL: not offered). */
    lg_status_t (*build)(void *state, const struct lg_plugin_build *b, struct lg_plugin_built *out);
    /* The algorithms it has GPU kernels for (kernels.h), in any order, one
     * row each; a row whose id the core does not know (a newer plugin) is
     * ignored, and an algorithm with no row has no GPU kernel.  A new
     * kernel is a new row, not a new ABI version. */
    const struct lg_kernel *const *kernels;
    int num_kernels;
};

/* Tests only: a plugin may also export LG_PLUGIN_TEST_HOOKS, a function of
 * type lg_plugin_test_hooks_fn, that the core's test hook
 * lg__plugin_test_hooks finds; it is not part of the table above. */
#define LG_PLUGIN_TEST_HOOKS "lg_plugin_test_hooks"
struct lg_plugin_test_hooks {
    /* The plugin's device and pinned-host allocation after the next
     * `allocations` fails as if the memory were exhausted, once; a negative
     * count disarms it.  Process-wide.  Returns the count it replaces:
     * negative once the armed failure has happened. */
    long long (*fail_after)(long long allocations);
    /* How many of the plugin's device and pinned-host allocations are live
     * now, process-wide (a leak check). */
    long long (*live_allocations)(void);
    /* BFS runs its search a launch a phase, as on a device without
     * cooperative launch, while `on` is nonzero (process-wide; not thread
     * safe).  Returns the setting it replaces. */
    int (*phase_launches)(int on);
    /* After the next `launches` kernel launches are checked, the one after
     * fails for real: the plugin launches a kernel the runtime refuses
     * (more threads a block than any device has), so the runtime's own
     * error comes back through the check.  Once; negative disarms.
     * Process-wide.  Returns the count it replaces: negative once the
     * armed failure has happened. */
    long long (*fail_launch_after)(long long launches);
};
typedef const struct lg_plugin_test_hooks *(*lg_plugin_test_hooks_fn)(void);

typedef lg_status_t (*lg_plugin_entry_fn)(const struct lg_plugin_host *host,
                                          const struct lg_plugin **plugin);

#ifdef __cplusplus
}
#endif

#endif /* LIBGRAPH_PLUGIN_H */
