/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plugin_res.h: a plugin's kernel resources without a GPU, from the cubin its shared
 * object carries: cuobjdump's resource report (the one kernels/gen_resources.sh reads for
 * occsweep's own kernels), run and parsed. No CUDA header. */
#ifndef OCC_PLUGIN_RES_H
#define OCC_PLUGIN_RES_H

#include <stddef.h>

#include "kernel_resources.h"

/* At most this much of cuobjdump's report is read (far more than a plugin's kernels need). */
#define OCC_PLUGIN_RES_MAX_BYTES (64 << 20)

/* Runs `cuobjdump -res-usage so_path` (cuobjdump: a path or a name looked up on PATH) for at most
 * timeout_s seconds and returns its output in *report (heap, NUL-terminated; free it). 0; -2 when
 * cuobjdump ran and found no device code in so_path (a shared object built without nvcc's device
 * code); or -1 (cuobjdump not found, failed: its first line quoted, killed by a signal, still
 * running after timeout_s or writing more than OCC_PLUGIN_RES_MAX_BYTES: then stopped). err: one
 * line either way (cuobjdump's own stderr is read, never printed). */
int occ_plugin_res_read(const char *cuobjdump, const char *so_path, double timeout_s,
                        char **report, char *err, size_t err_len);

/* Finds the kernel whose symbol is `function` (mangled, as cuobjdump prints it) in the section
 * of `arch` ("sm_90") of a -res-usage report, and fills out's regs_per_thread,
 * stack_bytes_per_thread and static_smem_bytes (SHARED as reported: static + the reserved
 * per-block part when it has any; a field the line lacks is 0); variant is set to function, arch
 * to arch, loads_in_flight_sass to 0. Returns 0; -1 when the report holds no such kernel for
 * arch; -2 when its line holds a REG, STACK or SHARED value that is not a whole number of
 * 0..INT_MAX ("REG:abc"), *bad then pointing at that field in report. */
int occ_plugin_res_parse(const char *report, const char *function, const char *arch,
                         OccKernelResources *out, const char **bad);

/* The name of the function at byte offset `offset` from the load base of the 64-bit ELF shared
 * object at so_path, from its symbol table (.symtab: nvcc gives kernel host stubs internal
 * linkage, so they are not in the dynamic symbols), into name[0..len). 0, or -1 when the file
 * cannot be read, is no 64-bit ELF, has no symbol table (stripped) or no function there. */
int occ_plugin_res_symbol(const char *so_path, unsigned long long offset, char *name, size_t len);

/* 1 when the report holds code for arch (any kernel), else 0. */
int occ_plugin_res_has_arch(const char *report, const char *arch);

#endif
