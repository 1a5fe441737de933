/*
 * loop.c - validation program for insn_count: runs a loop whose body has a
 * known number of instructions (inline asm), so two runs with N and 2N
 * iterations must differ by exactly N * body instructions.
 *
 *   loop s N      scalar body: 3 insns/iter (add, decrement, branch)
 *   loop v N      vector body: 4 insns/iter (vector load, vector add,
 *                 decrement, branch): SVE ld1w / RVV vle32.v / LASX xvld
 *   loop t N T    scalar body in each of T pthreads (total T*N*3)
 *
 * Build per ISA (see README.md): aarch64 needs +sve, riscv64 needs the v
 * extension (-march=rv64gcv), loongarch64 needs -mlasx.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int buf[64] __attribute__((aligned(64)));

static void scalar(long n)
{
    long acc = 0;
#if defined(__aarch64__)
    __asm__ volatile("1: add %1, %1, #1\n\t"
                     "subs %0, %0, #1\n\t"
                     "b.ne 1b" : "+r"(n), "+r"(acc) : : "cc");
#elif defined(__riscv)
    __asm__ volatile("1: addi %1, %1, 1\n\t"
                     "addi %0, %0, -1\n\t"
                     "bnez %0, 1b" : "+r"(n), "+r"(acc));
#elif defined(__loongarch__)
    __asm__ volatile("1: addi.d %1, %1, 1\n\t"
                     "addi.d %0, %0, -1\n\t"
                     "bnez %0, 1b" : "+r"(n), "+r"(acc));
#else
#error "unsupported ISA"
#endif
    if (acc < 0) puts("?"); /* keep acc live */
}

static void vector(long n)
{
    const int *p = buf;
#if defined(__aarch64__)
    __asm__ volatile("ptrue p0.s\n\t"
                     "mov z1.s, #0\n"
                     "1: ld1w {z0.s}, p0/z, [%1]\n\t"
                     "add z1.s, z1.s, z0.s\n\t"
                     "subs %0, %0, #1\n\t"
                     "b.ne 1b" : "+r"(n) : "r"(p)
                     : "cc", "memory", "p0", "z0", "z1");
#elif defined(__riscv)
#ifdef __clang__
#define RVV_CLOBBERS , "v0", "v1"
#else /* gcc 12 knows no vector registers (and never uses them) */
#define RVV_CLOBBERS
#endif
    __asm__ volatile("vsetivli zero, 8, e32, m1, ta, ma\n\t"
                     "vmv.v.i v1, 0\n"
                     "1: vle32.v v0, (%1)\n\t"
                     "vadd.vv v1, v1, v0\n\t"
                     "addi %0, %0, -1\n\t"
                     "bnez %0, 1b" : "+r"(n) : "r"(p)
                     : "memory" RVV_CLOBBERS);
#elif defined(__loongarch__)
    __asm__ volatile("xvxor.v $xr1, $xr1, $xr1\n"
                     "1: xvld $xr0, %1, 0\n\t"
                     "xvadd.w $xr1, $xr1, $xr0\n\t"
                     "addi.d %0, %0, -1\n\t"
                     "bnez %0, 1b" : "+r"(n) : "r"(p)
                     : "memory", "$f0", "$f1");
#endif
}

static void *thread_main(void *arg)
{
    scalar(*(long *)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s s|v|t N [THREADS]\n", argv[0]);
        return 2;
    }
    long n = atol(argv[2]);
    if (n < 1) return 2;
    switch (argv[1][0]) {
    case 's': scalar(n); break;
    case 'v': vector(n); break;
    case 't': {
        int t = argc > 3 ? atoi(argv[3]) : 4;
        pthread_t th[64];
        if (t < 1 || t > 64) return 2;
        for (int i = 0; i < t; i++) pthread_create(&th[i], NULL, thread_main, &n);
        for (int i = 0; i < t; i++) pthread_join(th[i], NULL);
        break;
    }
    default: return 2;
    }
    return 0;
}
