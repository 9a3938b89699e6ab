/* harness/options.h: the run_sweep command line, parsed into one OccOptions value.
 *
 * Pure C (no CUDA): parsing never prints and never exits; a bad command line comes back as
 * OCC_EXIT_USAGE plus a one-line message that names the bad value and what is accepted. Every
 * option may be repeated; the last one wins. Parsing stops at --help or --version. */
#ifndef OCC_OPTIONS_H
#define OCC_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/* Capacity of every list option (--unroll, --vec, --occ list), in values. */
enum { OCC_MAX_LIST = 16 };

/* Kernel families to sweep, as bits of OccOptions.kernels. */
typedef enum OccKernelMask {
    OCC_KERNEL_COPY = 1,   /* grid-stride copy */
    OCC_KERNEL_REDUCE = 2, /* grid-stride sum */
    OCC_KERNEL_CHASE = 4,  /* pointer chase */
    OCC_KERNEL_ALL = 7,    /* all three */
} OccKernelMask;

/* How a sweep point reaches its occupancy level (--lever). */
typedef enum OccLever {
    OCC_LEVER_AUTO,   /* natural variant + smem padding where its registers allow the level,
                         else the __launch_bounds__ variant (default) */
    OCC_LEVER_PAD,    /* natural variant + padding only; unreachable levels become skip rows */
    OCC_LEVER_BOUNDS, /* __launch_bounds__ (register-capped) variants only, + padding */
    OCC_LEVER_BOTH,   /* one row per lever wherever that lever reaches the level */
} OccLever;

/* Which pointer-chase experiment runs (--mode; chase kernel only). */
typedef enum OccChaseMode {
    OCC_CHASE_WARP,    /* each warp follows independent chains of 128-byte lines (default) */
    OCC_CHASE_THREAD,  /* each thread follows its own random chain (uncoalesced contrast) */
    OCC_CHASE_LATENCY, /* one thread, dependent loads; footprint swept (latency ladder) */
} OccChaseMode;

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

/* Everything the command line decides. occ_options_defaults gives the values marked default. */
typedef struct OccOptions {
    unsigned families;             /* TEMPORARY shim: bit i = catalog family i selected */
    const char *kernel_arg, *mode_arg; /* TEMPORARY shim */
    unsigned kernels;              /* OccKernelMask bits (--kernel); default OCC_KERNEL_ALL */
    int unroll[OCC_MAX_LIST];      /* --unroll: independent loads per thread, powers of two in
                                      1..8, order given, duplicates dropped; default {1,2,4,8} */
    int n_unroll;                  /* entries used in unroll[] */
    int vec_bytes[OCC_MAX_LIST];   /* --vec: bytes per load, each 4, 8 or 16, order given,
                                      duplicates dropped; default {4,8,16} */
    int n_vec;                     /* entries used in vec_bytes[] */
    OccOccSpec occ;                /* --occ; default range 6.25..100, step 0 (every level) */
    int block_threads;             /* --block: threads per block, 32..1024, multiple of 32;
                                      default 128 */
    OccLever lever;                /* --lever auto|pad|bounds|both; default auto */
    long long size_bytes;          /* --size: buffer size in bytes, > 0; 0 = auto (8 x L2 size,
                                      the default) */
    double max_noise_pct;          /* --max-noise: stop sampling once the relative stdev is at
                                      most this, percent in (0, 100]; default 0.5 */
    double max_time_s;             /* --max-time: time bound per point, seconds in (0, 3600];
                                      default 0.5 */
    int min_samples;               /* --min-samples: samples before the noise test, 1..100000;
                                      default 10 */
    const char *out_path;          /* --out FILE (points into argv); NULL (default) =
                                      results/<gpu-slug>/<kernel>-<UTC>.csv */
    int plot;                      /* --plot: 1 = draw plots beside the CSV; default 0 */
    int force;                     /* --force: 1 = overwrite an existing --out file; default 0 */
    const char *resume_path;       /* --resume FILE (points into argv): skip the points FILE
                                      holds, measure the rest, rewrite FILE with every row;
                                      NULL (default) = a fresh run */
    int device;                    /* --device: CUDA device index, >= 0; default 0 */
    int dry_run;                   /* --dry-run: 1 = print the plan, measure nothing; default 0 */
    const char *arch;              /* --arch sm_NN[a|f] (points into argv; needs --dry-run):
                                      plan for this architecture without a GPU; NULL (default) =
                                      the real device. Only the shape is checked here. */
    int list;                      /* --list: 1 = print the compiled variants and exit */
    int quiet;                     /* --quiet: 1 = no progress lines */
    int help;                      /* --help/-h: 1 = print occ_options_print_help and exit 0 */
    int version;                   /* --version/-V: 1 = print the version and exit 0 */
    OccChaseMode chase_mode;       /* --mode warp|thread|latency (needs the chase kernel);
                                      default warp */
    long long footprint_lo_bytes;  /* --footprint LO..HI (needs --mode latency): smallest chase
                                      footprint in bytes; 0 = auto (default) */
    long long footprint_hi_bytes;  /* largest chase footprint in bytes, >= footprint_lo_bytes;
                                      0 = auto (default) */
    int stride_bytes;              /* --stride (needs --mode latency): bytes between the lines of
                                      the chase, a power of two in 32..65536; default 128 */
    int cold;                      /* --cold (needs --mode latency): flush L2 before each of a
                                      few single passes instead of timing a warm chain; 0 = warm */
    int waves;                     /* --waves: copy/reduce grids of this many full waves
                                      (blocks/SM x SMs x waves; occupancy stays set by the
                                      padding), 1..64; default 1 (every block resident for the
                                      whole kernel) */
    int index_bytes;               /* --index-bytes (needs --mode latency): width of the stored
                                      next-line indices, 4 or 8; default 4 */
} OccOptions;

/* TEMPORARY shim until the table-driven parser lands. */
typedef struct OccRunAxis { const char *name; char value[32]; } OccRunAxis;
int occ_options_run_axes(const OccOptions *o, OccRunAxis *out, int max);

/* Fills *o with the defaults documented on each field. */
void occ_options_defaults(OccOptions *o);

/* Parses argv[1..argc-1] into *o, starting from the defaults. Long options take their value as
 * "--opt VALUE" or "--opt=VALUE"; unambiguous prefixes are accepted (getopt_long). argv is not
 * reordered. Re-entrant across calls (getopt state is reset each time), not thread-safe.
 * Returns OCC_EXIT_OK, or OCC_EXIT_USAGE with a one-line message in err (no trailing newline, no
 * program-name prefix; truncated to err_len; err may be NULL), e.g.
 * "--unroll: '3' is not a power of two (accepted: 1, 2, 4, 8 or a range like 1..8)".
 * Never prints, never exits. */
int occ_options_parse(int argc, char **argv, OccOptions *o, char *err, size_t err_len);

/* Writes the full --help text (options, defaults, examples, exit codes 0-3) to f; prog is the
 * program name shown in the usage line and the examples. */
void occ_options_print_help(FILE *f, const char *prog);

/* The command-line spelling of a lever ("auto", "pad", "bounds", "both"); "unknown" if invalid. */
const char *occ_lever_name(OccLever l);

/* The command-line spelling of a chase mode ("warp", "thread", "latency"); "unknown" if
 * invalid. */
const char *occ_chase_mode_name(OccChaseMode m);

/* Parses a byte size: a positive decimal integer with an optional suffix K, M, G (or KiB, MiB,
 * GiB), each 2^10, 2^20, 2^30: "4096", "512M", "1G", "4KiB". Returns 0 and sets *out, or -1 (and
 * leaves *out alone) on anything else: empty, sign, fraction, other suffix, zero, or a value
 * above LLONG_MAX bytes. */
int occ_parse_size_bytes(const char *s, long long *out);

/* Parses a comma list of decimal ints whose elements are values ("4", "-2") or ranges "LO..HI"
 * (LO <= HI): "1,2,4", "1..8", "1..4,16". A range expands to the powers of two within it when
 * powers_of_two_range is nonzero ("3..16" -> 4, 8, 16), else to every integer in it. Duplicates
 * are dropped, keeping the first; values are not otherwise checked. Returns 0 with out[0..*n-1]
 * set, or -1 on an empty list or element, a non-integer, an int overflow, an incomplete or
 * reversed range, a range holding no value, or more than max distinct values (out[] may then
 * have been written; *n is left alone). */
int occ_parse_int_list(const char *s, int *out, int max, int *n, int powers_of_two_range);

#endif
