/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_table.h: the one table of occsweep options: for each its kind, range,
 * default, help line, and whether it is global or scoped (taken only by the families whose
 * options list names it), plus the two rules read straight from an entry: the canonical text of
 * its value and its requires rule. Private to harness/cli: the parser, the scope checks and the
 * --help texts all read it, so that they cannot disagree. */
#ifndef OCC_OPTIONS_TABLE_H
#define OCC_OPTIONS_TABLE_H

#include <stddef.h>

#include "options_types.h"

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
    const char *name;         /* long name without dashes; a scoped one as
                                 kernels/families/<family>.h spells it in a family's options
                                 list */
    char short_name;          /* one-letter alias ('h'), or 0 */
    OccOptKind kind;          /* what the value is: how it is parsed, checked and described */
    int scoped;               /* 1: only for the families whose options list names it */
    int run_axis;             /* 1: changes what a point measures but is no CSV column (the
                                 --resume run axes, occ_options_run_axes in
                                 harness/cli/options.h) */
    int resumed;              /* 1: says what a run measures or how it is timed: --resume FILE
                                 takes it from FILE's command line, and a value given must
                                 agree (harness/cli/options_resume.h) */
    int stops;                /* 1: parsing stops after it (--help, --version) */
    size_t field, field2;     /* offsetof the OccOptions field(s) it sets (see kind) */
    double lo, hi;            /* INT, INT_LIST: inclusive range; DOUBLE: (lo, hi] */
    int zero_ok;              /* SIZE: 0 bytes is a value too (--smem); else only positive */
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

/* The field of OccOptions *o at offset off (an OccOptSpec's field or field2), as a type *. */
#define OCC_OPTION_FIELD(o, off, type) ((type *)(void *)((char *)(o) + (off)))

/* Number of options in the table. */
int occ_option_count(void);

/* Option i in table (= --help) order, or NULL when i is out of range. */
const OccOptSpec *occ_option_at(int i);

/* The option whose name is name[0..len), or NULL. */
const OccOptSpec *occ_option_named(const char *name, size_t len);

/* The canonical text of s's value in o, as the run axes and the requires rules spell it: "auto"
 * or the byte count (SIZE), the name (ENUM), decimal (INT, FLAG). Returns buf. */
char *occ_option_value(const OccOptions *o, const OccOptSpec *s, char *buf, size_t len);

/* 1 when s applies to o: it requires nothing, or the option it requires has the value named.
 * Else 0, with that option in *r and the value it needs in want[0..len) (each when not NULL). */
int occ_option_applies(const OccOptions *o, const OccOptSpec *s, const OccOptSpec **r, char *want,
                       size_t len);

#endif
