/*
 * version.c - the library's version, and how this copy was built: compiler,
 * CPU architecture, OpenMP, vector instruction set, and which GPU plugin it
 * finds (finding it loads it, without opening a device).
 */
#include "cpu.h"

#include <stdio.h>

#define LG_STR2(x) #x
#define LG_STR(x) LG_STR2(x)

#if defined(__x86_64__)
#define LG_ARCH "x86_64"
#elif defined(__aarch64__)
#define LG_ARCH "aarch64"
#elif defined(__riscv) && __riscv_xlen == 64
#define LG_ARCH "riscv64"
#elif defined(__loongarch64)
#define LG_ARCH "loongarch64"
#elif defined(__i386__)
#define LG_ARCH "i386"
#elif defined(__powerpc64__)
#define LG_ARCH "ppc64"
#elif defined(__s390x__)
#define LG_ARCH "s390x"
#else
#define LG_ARCH "other CPU"
#endif

const char *lg_version_string(void)
{
    return LG_STR(LG_VERSION_MAJOR) "." LG_STR(LG_VERSION_MINOR) "." LG_STR(LG_VERSION_PATCH);
}

/* __VERSION__ is gcc's bare number ("12.2.0"); clang's names itself */
#if defined(__clang__)
#define LG_COMPILER __VERSION__
#elif defined(__GNUC__)
#define LG_COMPILER "gcc " __VERSION__
#else
#define LG_COMPILER __VERSION__
#endif

#ifdef _OPENMP
#define LG_OMP_INFO "threads: OpenMP " LG_STR(_OPENMP)
#else
#define LG_OMP_INFO "threads: none (serial: built without OpenMP)"
#endif
/* Built once: finding the plugin loads it (without opening a device). */
static pthread_once_t build_info_once = PTHREAD_ONCE_INIT;
static char build_info[1024];

static void make_build_info(void)
{
    const char *plugin = lg__plugin_path();
    snprintf(build_info, sizeof build_info,
             "libgraph %s; compiler: %s; CPU: %s; %s; vectors: %s; %s%s", lg_version_string(),
             LG_COMPILER, LG_ARCH, LG_OMP_INFO, lg__cpu_isa(), plugin ? "GPU plugin: " : "",
             plugin ? plugin : lg__plugin_problem());
}

const char *lg_build_info(void)
{
    pthread_once(&build_info_once, make_build_info);
    return build_info;
}
