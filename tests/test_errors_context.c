/*
 * test_errors_context.c - the error paths of the status names, the
 * thread-local last error and the contexts, against the documented statuses
 * of include/libgraph.h.
 *
 * Every status has its name and an unknown one a name of its own; the
 * version strings agree; a failure sets the thread's message, a fresh thread
 * starts without one and its failures leave other threads' alone, and
 * successful calls do not clear it.  lg_context_create refuses bad thread
 * counts, backends and device ordinals (and a GPU without a plugin, with
 * LG_ERR_DEVICE) and sets its handle to NULL; AUTO falls back to the CPU;
 * the getters refuse NULL; the free functions accept NULL.  Device strings:
 * the forms the CLI and Python take, the others refused with the options
 * untouched.
 */
#define _POSIX_C_SOURCE 200809L

#include "errors_util.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <pthread.h>

/* ---- status names and the last error ---------------------------------------------- */

static void test_status_strings(void)
{
    static const struct {
        lg_status_t st;
        const char *name;
    } names[] = {
        {LG_OK, "LG_OK"},
        {LG_ERR_INVALID_ARGUMENT, "LG_ERR_INVALID_ARGUMENT"},
        {LG_ERR_OUT_OF_MEMORY, "LG_ERR_OUT_OF_MEMORY"},
        {LG_ERR_DEVICE, "LG_ERR_DEVICE"},
        {LG_ERR_UNSUPPORTED, "LG_ERR_UNSUPPORTED"},
        {LG_ERR_IO, "LG_ERR_IO"},
        {LG_ERR_NOT_CONVERGED, "LG_ERR_NOT_CONVERGED"},
        {LG_ERR_INTERNAL, "LG_ERR_INTERNAL"},
        {LG_ERR_CANCELLED, "LG_ERR_CANCELLED"},
    };
    const size_t count = sizeof names / sizeof names[0];
    for (size_t i = 0; i < count; i++) {
        const char *s = lg_status_string(names[i].st);
        CHECK(s != NULL && strcmp(s, names[i].name) == 0);
    }
    /* an unknown value gets a name too, and not the name of a real status */
    const int unknown[] = {-1, 9, 99, 1 << 20};
    for (size_t u = 0; u < sizeof unknown / sizeof unknown[0]; u++) {
        const char *s = lg_status_string((lg_status_t)unknown[u]);
        CHECK(s != NULL && s[0] != '\0');
        for (size_t i = 0; s && i < count; i++)
            CHECK(strcmp(s, names[i].name) != 0);
    }
    CHECK(strcmp(lg_version_string(), "0.1.0") == 0);
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", LG_VERSION_MAJOR, LG_VERSION_MINOR, LG_VERSION_PATCH);
    CHECK(strcmp(lg_version_string(), v) == 0);
    CHECK(lg_build_info() != NULL && lg_build_info()[0] != '\0');
    /* every field says what it is: the version first, then labelled ones */
    char head[64];
    snprintf(head, sizeof head, "libgraph %s; compiler: ", v);
    CHECK(strncmp(lg_build_info(), head, strlen(head)) == 0);
    CHECK(strstr(lg_build_info(), "; CPU: ") != NULL);
    CHECK(strstr(lg_build_info(), "; threads: ") != NULL);
    CHECK(strstr(lg_build_info(), "; vectors: ") != NULL);
}

struct thread_view {
    char first[512]; /* lg_last_error() as a new thread first sees it */
    char after[512]; /* after a failure of its own */
    lg_status_t st;
};

static void *fresh_thread(void *arg)
{
    struct thread_view *t = arg;
    snprintf(t->first, sizeof t->first, "%s", lg_last_error());
    lg_graph_t *g = NULL;
    t->st = lg_graph_from_edges(ctx, -5, 0, NULL, NULL, NULL, NULL, &g);
    snprintf(t->after, sizeof t->after, "%s", lg_last_error());
    return NULL;
}

static void test_last_error(void)
{
    lg_graph_t *g = NULL;
    /* a failure sets the message */
    CHECK_STATUS(lg_graph_from_edges(ctx, -1, 0, NULL, NULL, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    char mine[512];
    snprintf(mine, sizeof mine, "%s", lg_last_error());
    CHECK(mine[0] != '\0');

    /* a fresh thread has no message; its own failure does not touch ours */
    struct thread_view t = {{0}, {0}, LG_OK};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, fresh_thread, &t) == 0);
    pthread_join(th, NULL);
    CHECK(t.first[0] == '\0');
    CHECK(t.st == LG_ERR_INVALID_ARGUMENT && t.after[0] != '\0');
    CHECK(strcmp(lg_last_error(), mine) == 0);

    /* successful calls do not clear it */
    lg_graph_t *ok = small_graph(false);
    int32_t dist[4];
    CHECK_OK(lg_bfs(ctx, ok, 0, NULL, dist, NULL));
    CHECK(strcmp(lg_last_error(), mine) == 0);
    lg_graph_free(&ok);
}

/* ---- contexts ------------------------------------------------------------------------- */

static void test_context_errors(void)
{
    lg_context_options_t o;
    lg_context_t *c = POISON_CONTEXT;

    CHECK_STATUS(lg_context_create(NULL, NULL), LG_ERR_INVALID_ARGUMENT);

    lg_context_options_init(&o);
    CHECK(o.backend == LG_BACKEND_AUTO && o.device_id == 0 && o.num_threads == 0 &&
          o.stream == NULL);
    o.num_threads = -1;
    CHECK_STATUS(lg_context_create(&c, &o), LG_ERR_INVALID_ARGUMENT);
    CHECK(c == NULL);
    /* a team of 100000 threads took the OpenMP runtime down on first use */
    o.num_threads = LG_MAX_THREADS + 1;
    CHECK_STATUS(lg_context_create(&c, &o), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("num_threads 4097 is outside [0, 4096]");
    CHECK(c == NULL);

    const int bad_backends[] = {-1, 3, 42};
    for (size_t i = 0; i < sizeof bad_backends / sizeof bad_backends[0]; i++) {
        lg_context_options_init(&o);
        o.backend = (lg_backend_t)bad_backends[i];
        c = POISON_CONTEXT;
        CHECK_STATUS(lg_context_create(&c, &o), LG_ERR_INVALID_ARGUMENT);
        CHECK(c == NULL);
    }

    /* a negative GPU ordinal is no device */
    lg_context_options_init(&o);
    o.device_id = -1;
    c = POISON_CONTEXT;
    lg_status_t st = lg_context_create(&c, &o);
    CHECK(st == LG_ERR_INVALID_ARGUMENT && c == NULL);
    if (st == LG_OK)
        lg_context_free(&c);

    /* no GPU plugin next to this program (tests/test_plugin.c covers the rest) */
    lg_context_options_init(&o);
    o.backend = LG_BACKEND_GPU;
    c = POISON_CONTEXT;
    st = lg_context_create(&c, &o);
    CHECK(st == LG_ERR_DEVICE && strstr(lg_last_error(), "GPU plugin") != NULL);
    CHECK(c == NULL);
    if (st == LG_OK)
        lg_context_free(&c);

    /* AUTO falls back to the CPU quietly; 0 threads resolves to >= 1 */
    lg_context_options_init(&o);
    c = NULL;
    CHECK_OK(lg_context_create(&c, &o));
    if (c) {
        lg_backend_t b = LG_BACKEND_AUTO;
        int threads = 0;
        CHECK_OK(lg_context_get_backend(c, &b));
        CHECK(b == LG_BACKEND_CPU);
        CHECK_OK(lg_context_get_num_threads(c, &threads));
        CHECK(threads >= 1);
        CHECK_STATUS(lg_context_get_backend(c, NULL), LG_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(lg_context_get_num_threads(c, NULL), LG_ERR_INVALID_ARGUMENT);
        /* a CPU context has no device memory to copy */
        char a[4] = "abc", z[4] = "";
        CHECK_STATUS(lg_context_copy(c, z, a, sizeof a), LG_ERR_UNSUPPORTED);
        CHECK_MESSAGE("lg_context_copy: the context has no GPU");
        CHECK(z[0] == '\0');
        lg_context_free(&c);
        CHECK(c == NULL);
    }
    CHECK_OK(lg_context_create(&c, NULL));
    lg_context_free(&c);

    lg_backend_t b = LG_BACKEND_GPU;
    int threads = -3;
    CHECK_STATUS(lg_context_get_backend(NULL, &b), LG_ERR_INVALID_ARGUMENT);
    CHECK(b == LG_BACKEND_GPU);
    CHECK_STATUS(lg_context_get_num_threads(NULL, &threads), LG_ERR_INVALID_ARGUMENT);
    CHECK(threads == -3);

    /* free functions accept NULL and a pointer to NULL */
    lg_context_free(NULL);
    c = NULL;
    lg_context_free(&c);
    CHECK(c == NULL);
    lg_graph_free(NULL);
    lg_graph_t *g = NULL;
    lg_graph_free(&g);
    CHECK(g == NULL);
}

/* ---- device strings ------------------------------------------------------------------- */

/* Device strings: the forms the CLI and Python take, and the others
 * refused with options untouched. */
static void test_device_strings(void)
{
    static const struct {
        const char *device;
        lg_backend_t backend;
        int device_id;
    } good[] = {{"auto", LG_BACKEND_AUTO, 5}, {"cpu", LG_BACKEND_CPU, 5},
                {"gpu", LG_BACKEND_GPU, 0},   {"gpu:0", LG_BACKEND_GPU, 0},
                {"gpu:3", LG_BACKEND_GPU, 3}, {"gpu:2147483647", LG_BACKEND_GPU, 2147483647}};
    static const char *const bad[] = {"",
                                      "GPU",
                                      "gpu:",
                                      "gpu:-1",
                                      "gpu:+1",
                                      "gpu:1x",
                                      "gpu: 1",
                                      "gpu:2147483648",
                                      "gpu:99999999999999999999",
                                      "cpu:0",
                                      "auto ",
                                      "gpu1",
                                      "tpu"};
    lg_context_options_t o;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        lg_context_options_init(&o);
        o.device_id = 5;
        o.num_threads = 7;
        CHECK_OK(lg_context_options_parse(&o, good[i].device));
        CHECK(o.backend == good[i].backend && o.device_id == good[i].device_id &&
              o.num_threads == 7);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lg_context_options_init(&o);
        o.backend = LG_BACKEND_CPU;
        o.device_id = 5;
        CHECK_STATUS(lg_context_options_parse(&o, bad[i]), LG_ERR_INVALID_ARGUMENT);
        CHECK(strstr(lg_last_error(), "is not 'auto', 'cpu', 'gpu' or 'gpu:N'") != NULL);
        CHECK(o.backend == LG_BACKEND_CPU && o.device_id == 5);
    }
    CHECK_STATUS(lg_context_options_parse(NULL, "cpu"), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_context_options_parse(&o, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("lg_context_options_parse: device is NULL");
}
int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    CHECK(lg_last_error()[0] == '\0'); /* nothing has failed yet */
    static void (*const tests[])(void) = {
        test_status_strings,
        test_last_error,
        test_context_errors,
        test_device_strings,
    };
    return errors_main(tests, sizeof tests / sizeof tests[0]);
}
