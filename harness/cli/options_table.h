/* SPDX-License-Identifier: Apache-2.0 */
/* harness/options_table.h: the one table of run_sweep options, and the texts derived from it and
 * the catalog (accepted values, defaults, which families take an option). Private to the options
 * module: options.c parses with it, options_help.c prints it. */
#ifndef OCC_OPTIONS_TABLE_H
#define OCC_OPTIONS_TABLE_H

#include <stddef.h>

#include "options.h"

/* What an option's value is, and so how it is parsed, checked and described. */
typedef enum OccOptKind {
    OCC_OPT_FLAG,      /* no value: sets an int field to 1 */
    OCC_OPT_INT,       /* int field: decimal in lo..hi, a multiple of `multiple`, maybe 2^k */
    OCC_OPT_INT_LIST,  /* int array field + count field2: a comma list of INT values (each by
                          the INT rules); a range LO..HI is its powers of two */
    OCC_OPT_DOUBLE,    /* double field: a number in (lo, hi] */
    OCC_OPT_SIZE,      /* long long field: a byte size with optional suffix */
    OCC_OPT_LIST,      /* int array field + count field2: a list of the catalog's `axis` values */
    OCC_OPT_ENUM,      /* int-sized enum field: the index of one of names[] */
    OCC_OPT_OCC,       /* OccOccSpec field: a level range or list */
    OCC_OPT_FOOTPRINT, /* two long long fields (field, field2): a byte-size range */
    OCC_OPT_PATH,      /* const char * field: any non-empty text */
    OCC_OPT_ARCH,      /* const char * field: an arch name's shape, sm_NN[a|f] */
    OCC_OPT_KERNELS,   /* const char * field: a comma list of catalog kernel names or "all" */
    OCC_OPT_MODE,      /* const char * field: a catalog mode name */
    OCC_OPT_DEVICES,   /* int array field + count field2: "all" (count OCC_DEVICES_ALL) or a
                          list of device indices >= 0 */
} OccOptKind;

/* One option. Defaults: default_text is parsed into the field by the same code as a command-line
 * value; without it the field starts at 0/NULL, which unset_text describes in --help, or, for
 * the catalog-derived defaults (LIST, SIZE, KERNELS, MODE), the catalog does. */
typedef struct OccOptSpec {
    const char *name; /* long name without dashes; a scoped one as family_table.h
                         spells it in a family's options list */
    char short_name;  /* one-letter alias ('h'), or 0 */
    OccOptKind kind;
    int scoped;               /* 1: only for the families whose options list names it */
    int run_axis;             /* 1: changes what a point measures but is no CSV column (the
                                 --resume run axes, occ_options_run_axes) */
    int stops;                /* 1: parsing stops after it (--help, --version) */
    size_t field, field2;     /* offsetof the OccOptions field(s) it sets (see kind) */
    double lo, hi;            /* INT, INT_LIST: inclusive range; DOUBLE: (lo, hi] */
    int multiple;             /* INT, INT_LIST: values must be multiples of it (0: any) */
    int pow2;                 /* INT, INT_LIST: values must be powers of two */
    char axis;                /* LIST: the catalog axis, 'u' (unroll), 'v' (vector bytes) or 'a'
                                 (FMAs per loaded element) */
    const char *const *names; /* ENUM: the accepted names; the field gets the index */
    int n_names;              /* ENUM: entries in names */
    const char *noun;         /* ENUM, KERNELS, MODE: "is not a <noun>" */
    const char *accepted;     /* PATH: what to say is accepted (other kinds generate it) */
    const char *requires;     /* "NAME=VALUE": the option applies only while option NAME has
                                 VALUE (spelled as its run axis is, occ_options_run_axes); given
                                 otherwise, a usage error; NULL: always applies */
    const char *default_text; /* the default, as a command-line value; NULL: none */
    const char *unset_text;   /* --help: what no value means, when default_text is NULL; for
                                 KERNELS also the list the selection reads then */
    const char *metavar;      /* --help: the value's placeholder ("N", "LIST"); NULL for FLAG */
    const char *help;         /* --help: one line saying what it does */
} OccOptSpec;

/* Most options the table may hold (a parse keeps one bit per option). */
enum { OCC_OPTION_MAX = 64 };

/* Number of options, and option i (NULL when out of range), in table (= --help) order. */
int occ_option_count(void);
const OccOptSpec *occ_option_at(int i);

/* The names of the enum --lever: occ_lever_name spells them. */
extern const char *const occ_option_lever_names[];
enum { OCC_OPTION_N_LEVERS = 4 };
/* The names of the enum --schedule: occ_schedule_name spells them. */
extern const char *const occ_option_schedule_names[];
enum { OCC_OPTION_N_SCHEDULES = 2 };
extern const char *const occ_option_carveout_names[];
enum { OCC_OPTION_N_CARVEOUTS = 2 };
/* The names of the enum --chain: occ_chain_name spells them. */
extern const char *const occ_option_chain_names[];
enum { OCC_OPTION_N_CHAINS = 2 };

/* The canonical text of s's value in o, as the run axes and the requires rules spell it: "auto"
 * or the byte count (SIZE), the name (ENUM), decimal (INT, FLAG). Returns buf. */
char *occ_option_value(const OccOptions *o, const OccOptSpec *s, char *buf, size_t len);

/* 1 when s applies to o: it requires nothing, or the option it requires has the value named.
 * Else 0, with that option in *r and the value it needs in want[0..len) (each when not NULL). */
int occ_option_applies(const OccOptions *o, const OccOptSpec *s, const OccOptSpec **r,
                       char *want, size_t len);

/* Bit set of the catalog families that take the scoped option `name`. */
unsigned occ_option_takers(const char *name);

/* The distinct compiled values of LIST option s over the families in `families` that take it,
 * ascending, into out[0..max); returns how many were written. */
int occ_option_compiled(const OccOptSpec *s, unsigned families, int *out, int max);

/* The families in `set` for a message or --help: "copy, reduce, chase warp" (a kernel alone
 * when all its families are in the set, "kernel mode" otherwise). Returns buf. */
char *occ_option_family_names(unsigned set, char *buf, size_t len);

/* The modes of kernel `kernel`, in table order: "warp, thread, latency". Returns buf. */
char *occ_option_kernel_modes(const char *kernel, char *buf, size_t len);

/* What s accepts, e.g. "32..256, a multiple of 32" or "1, 2, 4, 8 or a range like 1..8", as
 * quoted after "accepted:" in messages and --help. Returns buf. */
char *occ_option_accepted(const OccOptSpec *s, char *buf, size_t len);

/* s's default as --help states it, e.g. "128" or "auto: 8 x the L2 size (copy, reduce)"; empty
 * for a flag. Returns buf. */
char *occ_option_default(const OccOptSpec *s, char *buf, size_t len);

/* Appends printf-formatted text to buf[0..len) at *at, truncating; for building the texts. */
void occ_option_append(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
