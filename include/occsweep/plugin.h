/* SPDX-License-Identifier: Apache-2.0 */
/* occsweep/plugin.h: a user's kernel as an occsweep family, from a shared object.
 *
 * A plugin is your kernel plus a small adapter: one function, occ_plugin(), returning a static
 * OccPlugin that names the kernel, lists its variants (each a kernel handle and a launcher) and
 * gives set-up, work per launch and verification. Build it with
 *
 *     nvcc -shared -Xcompiler -fPIC -arch=sm_90 -I<prefix>/include mykernel.cu -o libmykernel.so
 *
 * and sweep it with `occsweep --plugin ./libmykernel.so --occ 12.5..100`. occsweep sets the
 * occupancy of every point with dynamic shared memory it adds to what the kernel itself asks for
 * (OccPluginVariant.dyn_smem_bytes): the kernel must not touch the bytes past its own, which is
 * what `extern __shared__` storage it does not index gives. Launchers never print or exit; they
 * return the launch's cudaError_t (cudaGetLastError after <<<>>>).
 *
 * Your kernel handles stay in your shared object's CUDA runtime: occsweep asks for them through
 * get_kernel (cudaGetKernel), whose cudaKernel_t any runtime instance accepts, and selects its GPU
 * in your runtime through set_device (cudaSetDevice) and its launch limits through
 * func_set_attribute (cudaFuncSetAttribute), so the plugin may link the CUDA runtime statically
 * (nvcc's default). OCC_PLUGIN_RUNTIME fills the three.
 *
 * Do not strip the shared object: without a GPU, `--dry-run --arch` names each kernel from the
 * symbol table and reads its registers and shared memory from the shared object's own cubin
 * (cuobjdump). */
#ifndef OCCSWEEP_PLUGIN_H
#define OCCSWEEP_PLUGIN_H

#include <stddef.h>

#include <cuda_runtime_api.h>

/* The layout of OccPlugin and OccPluginVariant this header describes; occsweep refuses a plugin
 * built against another. */
#define OCC_PLUGIN_ABI_VERSION 1

/* The symbol occsweep looks up with dlsym. */
#define OCC_PLUGIN_ENTRY_SYMBOL "occ_plugin"

/* Words per block of the residency probe (see occ_plugin_probe_start). */
#define OCC_PLUGIN_PROBE_WORDS 3

#ifdef __cplusplus
extern "C" {
#endif

/* One launch, decided by occsweep. */
typedef struct OccPluginLaunch {
    int grid_blocks;           /* blocks in the grid: blocks/SM x SMs for a persistent kernel,
                                  else what OccPlugin.grid_blocks returned */
    int block_threads;         /* threads per block (--block), a multiple of 32 */
    size_t dyn_smem_bytes;     /* dynamic shared memory per block: the variant's own
                                  dyn_smem_bytes first, then the occupancy padding */
    cudaStream_t stream;       /* stream to launch on */
    unsigned long long *probe; /* NULL in timed launches; else the residency probe: pass it to
                                  the kernel for occ_plugin_probe_start / _end */
} OccPluginLaunch;

/* One compiled variant of the kernel (e.g. one instantiation of an ILP template parameter). */
typedef struct OccPluginVariant {
    const char *name;      /* CSV `variant` value and what --list prints: letters, digits and
                              '_', at most 63 of them, unique among all variants, e.g.
                              "saxpy_ilp4" */
    const void *kernel;    /* the __global__ function, e.g. (const void *)saxpy_kernel<4> */
    /* Launches the kernel once with l (state from OccPlugin.setup). */
    cudaError_t (*launch)(void *state, const OccPluginLaunch *l);
    int loads_in_flight;   /* independent global loads per thread before the first use of one
                              (CSV `unroll`; bytes in flight and the Little's-law model; the
                              figures draw a curve per (loads_in_flight, load_bytes), so give
                              variants distinct pairs); 0 when it has no such fixed number,
                              else 1..4096 */
    int load_bytes;        /* bytes per load instruction per thread (CSV `vec_bytes`): 0 when
                              loads_in_flight is 0, else 1..1048576 (1 MiB) */
    size_t dyn_smem_bytes; /* dynamic shared memory the kernel itself uses per block, bytes
                              (counted against the padding): 0 for none, at most 1 MiB */
} OccPluginVariant;

/* The plugin: what occ_plugin() returns. occsweep reads it once, when it loads the shared object,
 * and keeps copies of it, its variant table and their names (a pointer among them it cannot read
 * is refused then); the functions and kernels are called and used as given. A name or number
 * outside what the fields below allow is refused too, one line naming the field. */
typedef struct OccPlugin {
    int abi_version;    /* OCC_PLUGIN_ABI_VERSION of the header it was built against (read
                           first: the rest only when it is occsweep's) */
    const char *name;   /* --kernel name and CSV `kernel` column: letters, digits, '_', at most
                           63 of them; not "all" (--kernel all) nor a built-in kernel's name */
    int persistent;     /* 1: the kernel covers the whole problem with any grid (a grid-stride
                           or work-claiming loop): occsweep launches one full wave (blocks/SM x
                           SMs, CSV mode "persistent"); 0: it needs its own grid (grid_blocks;
                           CSV mode "own-grid"), the occupancy is set by the padding alone */
    double dram_bytes_per_load_byte; /* DRAM bytes of work_bytes per byte of loads in flight
                           for the Little's-law model (copy 2, a sum 1, SAXPY 1.5); 0: no model;
                           finite, 0..16 */
    const OccPluginVariant *variants; /* n_variants variants */
    int n_variants;     /* 1..64 */
    /* Set to cudaGetKernel: the kernel handle occsweep's own runtime can use. */
    cudaError_t (*get_kernel)(cudaKernel_t *kernel, const void *entry);
    /* Set to cudaSetDevice: occsweep selects its GPU in the plugin's runtime with it before
     * get_kernel and setup. */
    cudaError_t (*set_device)(int device);
    /* Set to cudaFuncSetAttribute: occsweep sets each point's dynamic shared memory limit with
     * it in the plugin's runtime too, where the launches happen. (OCC_PLUGIN_RUNTIME sets these
     * three fields.) */
    cudaError_t (*func_set_attribute)(const void *entry, enum cudaFuncAttribute attr, int value);
    /* Allocates and fills the buffers for a problem of about size_bytes bytes in all (--size,
     * or occsweep's default), on stream; *state is passed to every other call. */
    cudaError_t (*setup)(void **state, long long size_bytes, cudaStream_t stream);
    /* Frees what setup allocated. */
    void (*teardown)(void *state);
    /* The grid of variant v (index into variants) for blocks of block_threads; only called
     * when persistent is 0 (NULL otherwise). */
    int (*grid_blocks)(void *state, int v, int block_threads);
    /* Work of one launch of variant v: *bytes moved (DRAM bytes the kernel must move at least:
     * CSV bytes_per_launch, GB/s) and *flops (GFLOP/s); 0 for what does not apply. */
    void (*work)(void *state, int v, long long *bytes, long long *flops);
    /* Checks the output of one fresh launch of variant v launched with l (set-up state, a
     * launch of the measured shape): *ok = 1 when correct, *verify_err = the error it measured
     * (mismatches, or the largest difference). */
    cudaError_t (*verify)(void *state, int v, const OccPluginLaunch *l, double *verify_err,
                          int *ok);
} OccPlugin;

/* The three runtime fields of an OccPlugin, in order, bound to the runtime the plugin is
 * linked with. */
#define OCC_PLUGIN_RUNTIME cudaGetKernel, cudaSetDevice, cudaFuncSetAttribute

#if defined(__GNUC__)
#define OCC_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define OCC_PLUGIN_EXPORT
#endif

/* The one symbol a plugin defines, a function (occsweep refuses a data symbol of that name). */
OCC_PLUGIN_EXPORT const OccPlugin *occ_plugin(void);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* The residency probe, for occsweep's measured occupancy (CSV occ_measured_pct): call
 * occ_plugin_probe_start(probe) when a block starts and occ_plugin_probe_end(probe) from every
 * thread when it ends, with OccPluginLaunch.probe passed in as a kernel argument. NULL (timed
 * launches) costs one uniform branch. A kernel that does not call them gets no measured
 * residency (empty column), nothing else changes. */
__device__ __forceinline__ unsigned long long occ_plugin_clock_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Thread 0 of each block writes its SM and start time (occsweep's grids are 1-D). */
__device__ __forceinline__ void occ_plugin_probe_start(unsigned long long *probe)
{
    if (probe && threadIdx.x == 0) {
        unsigned int smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        probe[OCC_PLUGIN_PROBE_WORDS * blockIdx.x] = smid;
        probe[OCC_PLUGIN_PROBE_WORDS * blockIdx.x + 1] = occ_plugin_clock_ns();
    }
}

/* Every thread of the block calls it (a block barrier when the probe is on). */
__device__ __forceinline__ void occ_plugin_probe_end(unsigned long long *probe)
{
    if (probe) {
        __syncthreads();
        if (threadIdx.x == 0) probe[OCC_PLUGIN_PROBE_WORDS * blockIdx.x + 2] = occ_plugin_clock_ns();
    }
}
#endif

#endif
