/*
 * test_wave.hip - the examples in wave.h's comments, run on the device.
 *
 * Every primitive of src/kernels/hip/wave.h documents one concrete input and
 * its output; this program runs each example in every wave of a 256-thread
 * block and checks every lane's result on the host against the formula
 * written here independently.  Built once per wave width the build has
 * (native, and the emulated wave 64 on NVIDIA).  Exit 77 (ctest: skipped)
 * when no GPU answers.
 */
#include "wave.h"

#include <stdio.h>
#include <stdlib.h>

#define THREADS 256
#define W LG_WAVE_SIZE

struct lane_out {
    unsigned long long ballot;
    int any, all;
    long long shfl;
    int group4;
    long long sum;
    double sum_d;
    long long prefix, prefix_total;
    long long slot;
    long long block_prefix, block_total;
    int lane, wave;
};

__global__ void examples(lane_out *out, unsigned long long *counter)
{
    const int t = (int)threadIdx.x, lane = lg__lane_id();
    lane_out o;
    o.lane = lane;
    o.wave = lg__wave_id();
    o.ballot = (unsigned long long)lg__wave_ballot(lane % 2 == 1);
    o.any = lg__wave_any(lane == 3);
    o.all = lg__wave_all(lane == 3);
    o.shfl = lg__wave_shfl((long long)(10 * lane), W - 1);
    o.group4 = lg__group_sum<4>(lane);
    o.sum = lg__wave_sum((long long)(lane + 1));
    o.sum_d = lg__wave_sum((double)(lane + 1));
    long long total = 0;
    o.prefix = lg__wave_exclusive_sum((long long)(lane + 1), &total);
    o.prefix_total = total;
    o.slot = lg__wave_atomic_inc(&counter[lg__wave_id()], lane % 2 == 0);
    o.block_prefix = lg__block_exclusive_sum((long long)(t + 1), &total);
    o.block_total = total;
    out[t] = o;
}

static int failures = 0;
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (failures++ < 20) {                                                                 \
                fprintf(stderr, "  FAILED %s: ", #cond);                                           \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fprintf(stderr, "\n");                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

int main(void)
{
    int count = 0;
    if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
        printf("test_wave: skipped: no GPU answers\n");
        return 77;
    }
    hipDeviceProp_t prop;
    if (hipGetDeviceProperties(&prop, 0) != hipSuccess) {
        printf("test_wave: skipped: cannot read the device\n");
        return 77;
    }
#if !defined(LG_WAVE_EMULATED)
    if (prop.warpSize != W) {
        printf("test_wave: skipped: built for %d-lane waves, the device has %d\n", W,
               prop.warpSize);
        return 77;
    }
#endif
    const int waves = THREADS / W;
    lane_out *d_out = NULL;
    unsigned long long *d_counter = NULL;
    unsigned long long init[THREADS / 32];
    for (int i = 0; i < waves; i++)
        init[i] = 100;
    if (hipMalloc(&d_out, THREADS * sizeof(lane_out)) != hipSuccess ||
        hipMalloc(&d_counter, waves * sizeof(unsigned long long)) != hipSuccess ||
        hipMemcpy(d_counter, init, waves * sizeof(unsigned long long), hipMemcpyHostToDevice) !=
            hipSuccess) {
        fprintf(stderr, "test_wave: allocation failed\n");
        return 1;
    }
    examples<<<1, THREADS>>>(d_out, d_counter);
    hipError_t e = hipGetLastError();
    if (e == hipSuccess)
        e = hipDeviceSynchronize();
    if (e != hipSuccess) {
        fprintf(stderr, "test_wave: kernel failed: %s\n", hipGetErrorString(e));
        return 1;
    }
    static lane_out out[THREADS];
    unsigned long long counter[THREADS / 32];
    (void)hipMemcpy(out, d_out, sizeof out, hipMemcpyDeviceToHost);
    (void)hipMemcpy(counter, d_counter, waves * sizeof(unsigned long long), hipMemcpyDeviceToHost);

    const unsigned long long odd = W == 64 ? 0xAAAAAAAAAAAAAAAAull : 0xAAAAAAAAull;
    for (int t = 0; t < THREADS; t++) {
        const lane_out &o = out[t];
        const int lane = t % W;
        EXPECT(o.lane == lane && o.wave == t / W, "thread %d: lane %d wave %d", t, o.lane, o.wave);
        EXPECT(o.ballot == odd, "thread %d: ballot %llx", t, o.ballot);
        EXPECT(o.any == 1 && o.all == 0, "thread %d: any %d all %d", t, o.any, o.all);
        EXPECT(o.shfl == 10LL * (W - 1), "thread %d: shfl %lld", t, o.shfl);
        const int g0 = lane / 4 * 4;
        EXPECT(o.group4 == 4 * g0 + 6, "thread %d: group sum %d", t, o.group4);
        EXPECT(o.sum == (long long)W * (W + 1) / 2, "thread %d: wave sum %lld", t, o.sum);
        EXPECT(o.sum_d == (double)W * (W + 1) / 2, "thread %d: wave sum %g", t, o.sum_d);
        EXPECT(o.prefix == (long long)lane * (lane + 1) / 2, "thread %d: prefix %lld", t, o.prefix);
        EXPECT(o.prefix_total == (long long)W * (W + 1) / 2, "thread %d: total %lld", t,
               o.prefix_total);
        EXPECT(o.block_prefix == (long long)t * (t + 1) / 2 &&
                   o.block_total == (long long)THREADS * (THREADS + 1) / 2,
               "thread %d: block prefix %lld, total %lld", t, o.block_prefix, o.block_total);
        if (lane % 2 == 0)
            EXPECT(o.slot == 100 + lane / 2, "thread %d: slot %lld", t, o.slot);
        else
            EXPECT(o.slot == -1, "thread %d: inactive slot %lld", t, o.slot);
    }
    for (int i = 0; i < waves; i++)
        EXPECT(counter[i] == 100ull + W / 2, "wave %d: counter %llu", i, counter[i]);
    /* the documented numbers themselves, for this width */
    EXPECT(W != 64 || out[0].sum == 2080, "64-lane wave sum");
    EXPECT(W != 32 || out[0].sum == 528, "32-lane wave sum");
    EXPECT(W != 64 || out[63].group4 == 246, "64-lane group sum of lanes 60-63");
    EXPECT(out[THREADS - 1].block_total == 32896, "256-thread block sum");
    (void)hipFree(d_out);
    (void)hipFree(d_counter);
    printf("test_wave (%d-lane waves%s on %s): %d lanes checked, %d failures\n", W,
#if defined(LG_WAVE_EMULATED)
           ", emulated",
#else
           "",
#endif
           prop.name, THREADS, failures);
    return failures ? 1 : 0;
}
