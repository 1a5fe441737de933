/*
 * run.c - the algorithms as data (libgraph.h, "Algorithms as data"): the
 * table of descriptors, read by the layers above the C API, and
 * lg_algorithm_run, the one call that runs any algorithm by its descriptor.
 *
 * The table is made from the list (algorithms.h): the descriptor of each
 * algorithm is lg__algorithm_<name>, defined beside its entry point in
 * src/algorithms/<name>.c, so a new algorithm adds nothing here.
 * lg_algorithm_run checks only what a parameter's type says (an INT fits
 * int32, a BOOL is 0 or 1, a VERTEX_DOUBLES array has num_vertices values);
 * the algorithm's own run function fills its options struct and calls its
 * entry point, which checks the rest, once, with the messages the typed
 * call gives.
 */
#include "algorithm.h"

#include <stdio.h>
#include <string.h>

static const struct lg_algorithm *const table[LG_ALG_COUNT] = {
#define LG_ALGORITHM_ROW(ID, name, gpu) [LG_ALG_##ID] = &lg__algorithm_##name,
    LG_ALGORITHMS(LG_ALGORITHM_ROW)
#undef LG_ALGORITHM_ROW
};

int lg_algorithm_count(void)
{
    return LG_ALG_COUNT;
}

const lg_algorithm_info_t *lg_algorithm_at(int i)
{
    return i >= 0 && i < LG_ALG_COUNT ? &table[i]->info : NULL;
}

const lg_algorithm_info_t *lg_algorithm_find(const char *name)
{
    if (!name) {
        lg__error(LG_ERR_INVALID_ARGUMENT, "lg_algorithm_find: name is NULL");
        return NULL;
    }
    for (int i = 0; i < LG_ALG_COUNT; i++)
        if (!strcmp(table[i]->info.name, name))
            return &table[i]->info;
    char known[256] = "";
    size_t used = 0;
    for (int i = 0; i < LG_ALG_COUNT && used < sizeof known; i++) {
        int w =
            snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", table[i]->info.name);
        used += w > 0 ? (size_t)w : 0;
    }
    lg__error(LG_ERR_INVALID_ARGUMENT, "no algorithm is named '%s' (there are %s)", name, known);
    return NULL;
}

/* The algorithm a public descriptor belongs to, or NULL for a pointer that
 * is none of the table's. */
static const struct lg_algorithm *algorithm_of(const lg_algorithm_info_t *info)
{
    for (int i = 0; i < LG_ALG_COUNT; i++)
        if (&table[i]->info == info)
            return table[i];
    return NULL;
}

int lg_algorithm_index(const lg_algorithm_info_t *algorithm, const char *name, bool results)
{
    if (!algorithm || !name)
        return -1;
    const int count = results ? algorithm->num_results : algorithm->num_params;
    for (int k = 0; k < count; k++)
        if (!strcmp(results ? algorithm->results[k].name : algorithm->params[k].name, name))
            return k;
    return -1;
}

/* LG_OK when a is one of the table's, else the message for function. */
static lg_status_t check_algorithm(const char *function, const lg_algorithm_info_t *a)
{
    if (!a)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: algorithm is NULL", function);
    if (!algorithm_of(a))
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: algorithm is not a descriptor of lg_algorithm_at or "
                         "lg_algorithm_find",
                         function);
    return LG_OK;
}

lg_status_t lg_algorithm_defaults(const lg_algorithm_info_t *algorithm, lg_value_t *params)
{
    lg_status_t st = check_algorithm("lg_algorithm_defaults", algorithm);
    if (st != LG_OK)
        return st;
    if (algorithm->num_params > 0 && !params)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_algorithm_defaults: params is NULL");
    for (int k = 0; k < algorithm->num_params; k++)
        params[k] = algorithm->params[k].default_value;
    return LG_OK;
}

/* The element type of a REAL result: the PRECISION parameter's choice. */
static lg_type_t real_type(const lg_algorithm_info_t *a, const lg_value_t *p)
{
    for (int k = 0; k < a->num_params; k++)
        if (a->params[k].type == LG_TYPE_PRECISION && p[k].i == 1)
            return LG_TYPE_FLOAT32;
    return LG_TYPE_FLOAT64;
}

lg_status_t lg_algorithm_shapes(const lg_algorithm_info_t *algorithm, const lg_graph_t *graph,
                                const lg_value_t *params, lg_shape_t *shapes)
{
    lg_status_t st = check_algorithm("lg_algorithm_shapes", algorithm);
    if (st != LG_OK)
        return st;
    if (!graph || !shapes || (algorithm->num_params > 0 && !params))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_algorithm_shapes: %s is NULL",
                         !graph    ? "graph"
                         : !shapes ? "shapes"
                                   : "params");
    for (int k = 0; k < algorithm->num_results; k++) {
        const lg_result_info_t *r = &algorithm->results[k];
        const int when = r->when ? lg_algorithm_index(algorithm, r->when, false) : -1;
        shapes[k].type = r->type == LG_TYPE_REAL ? real_type(algorithm, params) : r->type;
        shapes[k].made = when < 0 || params[when].i;
        shapes[k].length = r->per_vertex ? graph->n : r->per_arc ? graph->m : 1;
    }
    return LG_OK;
}

void lg_run_options_init(lg_run_options_t *options)
{
    if (!options)
        return;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

/* LG_OK when p, parameter `info` of the call of `function` on a graph of n
 * vertices, is a value its type allows. */
static lg_status_t check_value(const char *function, const lg_param_info_t *info,
                               const lg_value_t *p, int64_t n)
{
    switch (info->type) {
    case LG_TYPE_BOOL:
        if (p->i != 0 && p->i != 1)
            return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is %lld; a flag is 0 or 1", function,
                             info->name, (long long)p->i);
        break;
    case LG_TYPE_INT:
        if (p->i < INT32_MIN || p->i > INT32_MAX)
            return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s %lld is out of range [%d, %d]",
                             function, info->name, (long long)p->i, INT32_MIN, INT32_MAX);
        break;
    case LG_TYPE_PRECISION:
        if (p->i != 0 && p->i != 1)
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "%s: %s is %lld; it is 0 (float64) or 1 (float32)", function,
                             info->name, (long long)p->i);
        break;
    case LG_TYPE_VERTICES:
        if (p->length < 0)
            return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s has a length of %lld", function,
                             info->name, (long long)p->length);
        break;
    case LG_TYPE_VERTEX_DOUBLES:
        if (p->array && p->length != n)
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "%s: %s has %lld values; the graph has %lld vertices", function,
                             info->name, (long long)p->length, (long long)n);
        break;
    default: break;
    }
    return LG_OK;
}

lg_status_t lg_algorithm_run(lg_context_t *context, const lg_graph_t *graph,
                             const lg_algorithm_info_t *algorithm, const lg_value_t *params,
                             void *const *results, const lg_run_options_t *options)
{
    lg_run_options_t defaults;
    lg__set_last_backend(LG_BACKEND_AUTO);
    lg_status_t st = check_algorithm("lg_algorithm_run", algorithm);
    if (st != LG_OK)
        return st;
    const char *fn = algorithm->function;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if ((algorithm->num_params > 0 && !params) || (algorithm->num_results > 0 && !results))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         algorithm->num_params > 0 && !params ? "params" : "results");
    for (int k = 0; k < algorithm->num_params; k++)
        if ((st = check_value(fn, &algorithm->params[k], &params[k], graph->n)) != LG_OK)
            return st;
    if (!options) {
        lg_run_options_init(&defaults);
        options = &defaults;
    }
    return algorithm_of(algorithm)->run(context, graph, params, results, options);
}
