/*
 * insn_count.c - minimal QEMU TCG plugin: count guest instructions executed
 * by a qemu-user run and print the total at exit, as one line on stderr:
 *
 *     insns: 123456789
 *
 * Written against the public plugin API (include/qemu/qemu-plugin.h of
 * QEMU 10.0.2, plugin API version 4; uses the scoreboard/inline API added
 * in API 2, so Debian's qemu 7.2 (API 1) cannot load it).
 *
 * How: at translation time each translation block (TB) gets an inline
 * "add N" op on a per-vCPU scoreboard slot (N = instructions in the TB, or
 * 1 per instruction with mode=insn). Inline ops are emitted into the
 * generated host code, so there is no callback per TB; each vCPU thread
 * writes only its own slot, so the count is correct with several guest
 * threads (OpenMP). The slots are summed at exit.
 *
 * Plugin arguments (-plugin lib.so,arg=val,...):
 *   mode=tb    (default) add the TB's instruction count when a TB starts.
 *              If a TB is left in the middle (a fault/signal, or an atomic
 *              restarted in exclusive mode), its tail is counted anyway;
 *              for ordinary code both modes give the same number.
 *   mode=insn  add 1 before each instruction (slower translation and run).
 *   out=PATH   also write the bare number to PATH (truncated), handy when
 *              the guest program's own stderr is noisy.
 *   range=NAME:LO-HI  also count the instructions at guest addresses
 *              [LO, HI) (hex) apart, printed as "insns NAME: N"; a NAME
 *              given again adds its range to the same count (a function
 *              and its twin).  Up to MAX_RANGES names; each instruction is
 *              then counted one by one.  The addresses are a non-PIE
 *              executable's, as `nm -S` gives them (tools/isa-counts.sh).
 *
 * Counts are "instructions started", i.e. retired ones plus at most the one
 * that faulted. Everything the process runs is counted: the dynamic loader,
 * libc start-up and exit, so compare two runs (N vs 2N) to isolate a loop.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <qemu-plugin.h>

/* Required: tells QEMU which plugin API version this file was built for. */
QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_RANGES 16
#define MAX_SPANS 64

/* Per vCPU: the total, then one count per named range. */
struct counts {
    uint64_t total;
    uint64_t range[MAX_RANGES];
};

static struct qemu_plugin_scoreboard *board; /* one struct counts per vCPU */
static qemu_plugin_u64 count;                /* handle to its total */
static qemu_plugin_u64 range_count[MAX_RANGES];
static int per_insn;                         /* mode=insn */
static const char *out_path;                 /* out=PATH, or NULL */

static char range_name[MAX_RANGES][64];
static int num_ranges;
static struct span {
    uint64_t lo, hi;
    int range;
} spans[MAX_SPANS];
static int num_spans;

/* range=NAME:LO-HI: its name's slot (new or the same name's), its span. */
static int add_range(const char *arg)
{
    const char *colon = strrchr(arg, ':');
    unsigned long long lo, hi;
    if (!colon || colon == arg || (size_t)(colon - arg) >= sizeof range_name[0] ||
        sscanf(colon + 1, "%llx-%llx", &lo, &hi) != 2 || lo >= hi || num_spans == MAX_SPANS)
        return -1;
    int r = 0;
    while (r < num_ranges && (strncmp(range_name[r], arg, (size_t)(colon - arg)) != 0 ||
                              range_name[r][colon - arg] != '\0'))
        r++;
    if (r == num_ranges) {
        if (num_ranges == MAX_RANGES)
            return -1;
        memcpy(range_name[r], arg, (size_t)(colon - arg));
        range_name[r][colon - arg] = '\0';
        num_ranges++;
    }
    spans[num_spans++] = (struct span){lo, hi, r};
    return 0;
}

static int range_of(uint64_t vaddr)
{
    for (int i = 0; i < num_spans; i++)
        if (vaddr >= spans[i].lo && vaddr < spans[i].hi)
            return spans[i].range;
    return -1;
}

/* Called once per new TB (not per execution): plant the inline counters. */
static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);

    (void)id;
    if (!per_insn && num_ranges == 0) {
        qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
            tb, QEMU_PLUGIN_INLINE_ADD_U64, count, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            insn, QEMU_PLUGIN_INLINE_ADD_U64, count, 1);
        const int r = range_of(qemu_plugin_insn_vaddr(insn));
        if (r >= 0)
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, range_count[r], 1);
    }
}

/* Guest exit (exit_group): sum all vCPUs' slots and report. */
static void on_guest_exit(qemu_plugin_id_t id, void *udata)
{
    uint64_t total = qemu_plugin_u64_sum(count);

    (void)id;
    (void)udata;
    fprintf(stderr, "insns: %" PRIu64 "\n", total);
    for (int r = 0; r < num_ranges; r++)
        fprintf(stderr, "insns %s: %" PRIu64 "\n", range_name[r],
                qemu_plugin_u64_sum(range_count[r]));
    fflush(stderr);
    if (out_path) {
        FILE *f = fopen(out_path, "w");
        if (f) {
            fprintf(f, "%" PRIu64 "\n", total);
            fclose(f);
        }
    }
    qemu_plugin_scoreboard_free(board);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "mode=tb") == 0) {
            per_insn = 0;
        } else if (strcmp(argv[i], "mode=insn") == 0) {
            per_insn = 1;
        } else if (strncmp(argv[i], "out=", 4) == 0) {
            out_path = argv[i] + 4; /* argv stays valid while loaded */
        } else if (strncmp(argv[i], "range=", 6) == 0 && add_range(argv[i] + 6) == 0) {
            continue;
        } else {
            fprintf(stderr, "insn_count: bad argument '%s' "
                    "(use mode=tb|insn, out=PATH, range=NAME:LO-HI)\n", argv[i]);
            return -1;
        }
    }
    board = qemu_plugin_scoreboard_new(sizeof(struct counts));
    count = qemu_plugin_scoreboard_u64_in_struct(board, struct counts, total);
    for (int r = 0; r < MAX_RANGES; r++)
        range_count[r] = qemu_plugin_scoreboard_u64_in_struct(board, struct counts, range[r]);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
    qemu_plugin_register_atexit_cb(id, on_guest_exit, NULL);
    return 0;
}
