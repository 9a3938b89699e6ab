/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_types.h: what the command line decides: OccOptions and the types of its
 * fields. Header-only.
 *
 * The option table (harness/cli/options_table.c) names each field by its offset, the parser
 * (harness/cli/options.c) fills it, and the plan, the calculator and bench/ read it. An option
 * is global (every run) or scoped: it belongs to the kernel families whose options list in their
 * descriptor (kernels/families/<family>.h) names it, and a scoped field keeps its default when
 * no selected family takes it. */
#ifndef OCC_OPTIONS_TYPES_H
#define OCC_OPTIONS_TYPES_H

/* Capacity of every list option (--unroll, --vec, --fmas, --occ list), in values. */
enum { OCC_MAX_LIST = 16 };

/* OccOptions.n_devices of --device all. */
enum { OCC_DEVICES_ALL = -1 };

/* The footprints a pointer chase can measure: at least OCC_FOOTPRINT_MIN_LINES lines of
 * --stride bytes (a cycle through one line measures nothing), at most OCC_FOOTPRINT_MAX_BYTES
 * (1 TiB, beyond any GPU's memory). */
enum { OCC_FOOTPRINT_MIN_LINES = 2 };
#define OCC_FOOTPRINT_MAX_BYTES (1LL << 40)

/* How a sweep point reaches its occupancy level (--lever). */
typedef enum OccLever {
    OCC_LEVER_AUTO,   /* natural variant + smem padding where its registers allow the level,
                         else the __launch_bounds__ variant (default) */
    OCC_LEVER_PAD,    /* natural variant + padding only; unreachable levels become skip rows */
    OCC_LEVER_BOUNDS, /* __launch_bounds__ (register-capped) variants only, + padding */
    OCC_LEVER_BOTH,   /* one row per lever wherever that lever reaches the level */
} OccLever;

/* How the streaming kernels share their buffer among blocks (--schedule). */
typedef enum OccSchedulePolicy {
    OCC_SCHEDULE_DYNAMIC, /* blocks claim chunks from a counter until the work is gone (default):
                             the occupancy that was set is the occupancy that runs */
    OCC_SCHEDULE_STATIC,  /* one contiguous share of the buffer per block: blocks finish at
                             staggered times and the tail runs at lower occupancy */
} OccSchedulePolicy;
/* How much of the L1/shared SRAM the occupancy sweeps give to shared memory (--carveout). One
 * carveout holds for every point of a run: the padding pins each level inside it. */
typedef enum OccCarveout {
    OCC_CARVEOUT_MIN, /* the smallest step in which padding pins every level of the block size
                         (the rest is L1, which stages every load in flight; default) */
    OCC_CARVEOUT_MAX, /* maximum shared memory: L1 keeps only what is left (sm_90: 28 KiB) */
} OccCarveout;

/* What the latency ladder's chain stores (--chain). */
typedef enum OccChain {
    OCC_CHAIN_ADDRESS, /* the next line's device address: one load per hop, nothing between
                          (default) */
    OCC_CHAIN_INDEX,   /* the next line's index, --index-bytes wide: each hop also computes the
                          address from it */
} OccChain;

/* The occupancy levels to visit (--occ), in percent of max warps per SM. */
typedef struct OccOccSpec {
    int is_list;              /* 1: explicit levels in pct[]; 0: the range lo_pct..hi_pct */
    double pct[OCC_MAX_LIST]; /* explicit levels, percent in (0, 100], in the order given,
                                 duplicates dropped; valid when is_list */
    int n_pct;                /* entries used in pct[]; 0 for a range */
    double lo_pct, hi_pct;    /* range ends, percent, 0 < lo_pct <= hi_pct <= 100; for a list,
                                 its smallest and largest level */
    double step_pct;          /* range step in percent; 0 = every achievable level in the range
                                 (always 0 for a list) */
} OccOccSpec;

/* Everything the command line decides. occ_options_defaults (harness/cli/options.h) gives the
 * values marked default. "Scoped" fields belong to options only some families take; they keep
 * their default when no selected family takes them. */
typedef struct OccOptions {
    unsigned families;            /* bit i set = catalog family i (occ_family_at(i)) selected;
                                     --kernel/--mode; default: the default-mode family of every
                                     kernel */
    const char *kernel_arg;       /* --kernel LIST as given (points into argv): comma list of
                                     catalog kernel names or `all`; NULL (default) = all */
    const char *mode_arg;         /* --mode M as given (points into argv): for each selected
                                     kernel, its family of mode M instead of its default mode;
                                     NULL (default) = each kernel's default mode */
    const char *plugin_path;      /* --plugin FILE (points into argv): a user's kernel as a
                                     family, from a shared object the program loaded before
                                     parsing (harness/families/plugin_load.h); without
                                     --kernel, only its family is selected; NULL (default) =
                                     none */
    int unroll[OCC_MAX_LIST];     /* --unroll (scoped): independent loads per thread (chase:
                                     chains), as occ_parse_int_list with power-of-two ranges,
                                     order given, duplicates dropped, each compiled for a
                                     selected family taking --unroll; default: every compiled U
                                     of those families, ascending */
    int n_unroll;                 /* entries used in unroll[]; 0 when no selected family takes
                                     --unroll */
    int vec_bytes[OCC_MAX_LIST];  /* --vec (scoped): bytes per load, a list like --unroll's,
                                     each compiled for a selected family taking --vec; default:
                                     every compiled V of those families, ascending */
    int n_vec;                    /* entries used in vec_bytes[]; 0 when no selected family
                                     takes --vec */
    int fma_per_element[OCC_MAX_LIST]; /* --fmas (scoped): dependent FMAs per loaded element, a
                                     list like --unroll's, each compiled for a selected family
                                     taking --fmas; default: every compiled A, ascending */
    int n_fma_per_element;        /* entries used in fma_per_element[]; 0 when no selected
                                     family takes --fmas */
    OccOccSpec occ;               /* --occ (scoped); default range 6.25..100, step 0 (every
                                     level) */
    int block_threads[OCC_MAX_LIST]; /* --block LIST (scoped): threads per block, each
                                     32..OCC_LB_MAX_THREADS (kernels/variants.h, 1024) and a
                                     multiple of 32, order given, duplicates dropped; a range is
                                     its powers of two; default {128}. block_threads[0] is the
                                     block of a single-block use (--calc) */
    int n_block_threads;          /* entries used in block_threads[], >= 1 */
    OccLever lever;               /* --lever (scoped) auto|pad|bounds|both; default auto.
                                     bounds is refused when a selected sweep family has no
                                     register-capped variants */
    OccSchedulePolicy schedule;   /* --schedule (scoped) dynamic|static; default dynamic */
    OccCarveout carveout;         /* --carveout (scoped) min|max; default min */
    long long size_bytes;         /* --size (scoped): buffer size in bytes, > 0; 0 (default) =
                                     auto: the family's size_l2_multiple x the L2 size */
    double max_noise_pct;         /* --max-noise: stop sampling once the relative stdev is at
                                     most this, percent in (0, 100]; default 0.5 */
    double max_time_s;            /* --max-time: time bound per point, seconds in (0, 3600];
                                     default 0.5 */
    int min_samples;              /* --min-samples: samples before the noise test, 1..100000;
                                     default 10 */
    const char *out_path;         /* --out FILE (points into argv); NULL (default) =
                                     runs/<gpu-slug>/<kernel>-<UTC>.csv */
    int plot;                     /* --plot: 1 = draw plots beside the CSV; default 0 */
    int ncu;                      /* --ncu: 1 = after timing, profile each point once with
                                     Nsight Compute (bench/ncu_pass.h); default 0 */
    int report;                   /* --report: 1 = figures and the one-page report (Markdown and
                                     HTML) beside the CSV; default 0 */
    int force;                    /* --force: 1 = overwrite an existing --out file; default 0 */
    const char *resume_path;      /* --resume FILE (points into argv; not with --out): skip the
                                     points FILE holds, measure the rest, rewrite FILE with every
                                     row; NULL (default) = a fresh run */
    int resume_mismatch;          /* --resume-mismatch (only with --resume): 1 = resume a file
                                     whose git revision, timing settings or command line differ
                                     or whose axis lines are missing; default 0 (refused) */
    const char *recompute_path;   /* --recompute FILE (points into argv; not with --resume,
                                     --dry-run or --calc): recompute the model and knee table of
                                     FILE's rows, no GPU, the markdown report at --out when
                                     given; NULL (default) = none */
    const char *json_path;        /* --json FILE (points into argv): the JSON summary of the
                                     run's CSV (with --recompute: of that CSV), written at the
                                     end (harness/report/summary_json.h); NULL (default) = none */
    int devices[OCC_MAX_LIST];    /* --device LIST|all: CUDA device indices, distinct, >= 0, in
                                     the order given (ranges like 0..3 allowed); default {0} */
    int n_devices;                /* entries in devices, 1..OCC_MAX_LIST, or OCC_DEVICES_ALL for
                                     --device all; more than one (or all): a fleet run, one
                                     worker process per GPU (bench/fleet_run.c); default 1 */
    int device;                   /* devices[0] (0 for all): the GPU of a single-device run */
    int dry_run;                  /* --dry-run: 1 = print the plan, measure nothing; default 0 */
    const char *arch;             /* --arch sm_NN[a|f] (points into argv; needs --dry-run or
                                     --calc): plan (or calculate) for this architecture without
                                     a GPU; NULL (default) = the real device. Only the shape is
                                     checked here. */
    int calc;                     /* --calc: 1 = print the occupancy calculator
                                     (harness/cli/calc.h) for --block, --regs and --smem, and
                                     exit; default 0. With it, --carveout defaults to max */
    int regs_per_thread;          /* --regs (only with --calc, which needs it): registers per
                                     thread, 1..255; 0 (default) = not given */
    long long smem_bytes;         /* --smem (only with --calc): shared memory per block, bytes,
                                     > 0; 0 (default) = none */
    double target_occ_pct;        /* --target-occ (only with --calc): occupancy in percent, in
                                     (0, 100], to find the most registers per thread for; 0
                                     (default) = no such question */
    int target_blocks;            /* --target-blocks (only with --calc): blocks per SM, 1..32, to
                                     find the padding (dynamic shared memory) for; 0 (default) =
                                     no such question */
    int list;                     /* --list: 1 = print the compiled variants and exit */
    int quiet;                    /* --quiet: 1 = no progress lines */
    int no_loaded;                /* --no-loaded: 1 = no load levels planned; the model falls
                                     back to the unloaded DRAM latency */
    int help;                     /* --help/-h: 1 = print occ_options_print_help and exit 0 */
    int version;                  /* --version/-V: 1 = print the version and exit 0 */
    int help_man;                 /* --help-man: 1 = print the man page (roff) and exit 0 */
    long long footprint_lo_bytes; /* --footprint LO..HI (scoped): smallest footprint in bytes;
                                     default 4 KiB */
    long long footprint_hi_bytes; /* largest footprint in bytes, >= footprint_lo_bytes, at most
                                     OCC_FOOTPRINT_MAX_BYTES and at least
                                     OCC_FOOTPRINT_MIN_LINES x stride_bytes; default 4 GiB */
    int stride_bytes;             /* --stride (scoped): bytes between the lines of the chain, a
                                     power of two in 32..65536; default 128 */
    int cold;                     /* --cold (scoped): 1 = flush L2 before each of a few single
                                     passes instead of timing a warm chain; default 0 (warm) */
    int waves;                    /* --waves (scoped): grids of this many full waves (blocks/SM
                                     x SMs x waves; occupancy stays set by the padding), 1..64;
                                     default 1 (every block resident for the whole kernel) */
    OccChain chain;               /* --chain (scoped) address|index; default address */
    int index_bytes;              /* --index-bytes (scoped, only with --chain index): width of
                                     the stored next-line indices, 4 or 8; default 4 */
} OccOptions;

#endif
