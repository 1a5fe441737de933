/*
 * version.c - the library's version, and how this copy was built: compiler,
 * OpenMP, and which GPU plugin it finds (finding it loads it, without
 * opening a device).
 */
#include "internal.h"

#include <stdio.h>

#define LG_STR2(x) #x
#define LG_STR(x) LG_STR2(x)

const char *lg_version_string(void)
{
    return LG_STR(LG_VERSION_MAJOR) "." LG_STR(LG_VERSION_MINOR) "." LG_STR(LG_VERSION_PATCH);
}

#ifdef _OPENMP
#define LG_OMP_INFO "OpenMP " LG_STR(_OPENMP)
#else
#define LG_OMP_INFO "no OpenMP"
#endif
/* Built once: finding the plugin loads it (without opening a device). */
static pthread_once_t build_info_once = PTHREAD_ONCE_INIT;
static char build_info[1024];

static void make_build_info(void)
{
    const char *plugin = lg__plugin_path();
    snprintf(build_info, sizeof build_info, "libgraph %s; %s; %s; %s%s", lg_version_string(),
             __VERSION__, LG_OMP_INFO, plugin ? "GPU plugin: " : "",
             plugin ? plugin : lg__plugin_problem());
}

const char *lg_build_info(void)
{
    pthread_once(&build_info_once, make_build_info);
    return build_info;
}
