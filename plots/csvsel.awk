# plots/csvsel.awk: reads occsweep CSVs (harness/csv.h format) for the plot scripts. Columns are
# found by header name, never by position; only rows with status "ok" are used.
#
#   awk -f csvsel.awk -v task=check FILE
#       Validates FILE and prints, tab-separated:
#         meta  KEY  VALUE                        one per metadata key (the last value wins)
#         fig   TYPE  WHERE  SUFFIX  DESCRIPTION  one per figure the ok rows call for
#       TYPE is occupancy, inflight, ladder or chase; WHERE is the row filter to pass back to
#       task=select; SUFFIX is the part of the output name after "<csvbase>-". WHERE and SUFFIX
#       name a lever only when some (kernel, mode, unroll, vec_bytes, blocks_per_sm) point was
#       measured under two levers; otherwise one figure holds every lever's points.
#   awk -f csvsel.awk -v task=select FILE...   (arguments in the environment, see below)
#       Prints the ok rows that pass PLOT_WHERE and hold numbers in PLOT_X and PLOT_Y, as
#       tab-separated blocks for gnuplot's `index`: one block per file and distinct PLOT_BY
#       tuple, sorted by those and then by x; each block starts with its header line and two
#       blank lines separate blocks. Columns: set_idx (file number, 1-based), label (the file's
#       gpu_name, plus the file's base name when two files name the same GPU), each PLOT_BY
#       column, <col>_rank (1-based rank of its value among all selected rows), x, y (or
#       pct_of_<PLOT_NORM> = 100 y / metadata PLOT_NORM), the PLOT_KEEP columns.
#
# Environment (not -v, which would expand backslashes in values): PLOT_WHERE conditions
# "col=value" joined by \037; PLOT_BY and PLOT_KEEP comma-separated column names; PLOT_X,
# PLOT_Y column names; PLOT_POSITIVE_X=1 drops x <= 0 (log axes); PLOT_NORM a metadata key;
# PLOT_WHAT names the figure in messages.
# Errors: one line "plots: FILE: problem" on stderr and exit status 2.

function fail(msg) {
    fail_in(FILENAME, msg)
}

function fail_in(file, msg) {
    printf "plots: %s: %s\n", file, msg > "/dev/stderr"
    failed = 1
    exit 2
}

function isnum(s) {
    return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/
}

function clean(s) {
    gsub(/[\t\r\n]/, " ", s)
    return s
}

# RFC 4180 fields; the quote-free common case takes the fast path.
function split_csv(line, out,    n, i, c, f, inq, len) {
    if (index(line, "\"") == 0) return split(line, out, ",")
    n = 0; f = ""; inq = 0; len = length(line)
    for (i = 1; i <= len; i++) {
        c = substr(line, i, 1)
        if (inq) {
            if (c != "\"") f = f c
            else if (substr(line, i + 1, 1) == "\"") { f = f "\""; i++ }
            else inq = 0
        } else if (c == "\"") inq = 1
        else if (c == ",") { out[++n] = f; f = "" }
        else f = f c
    }
    if (inq) return -1
    out[++n] = f
    return n
}

function unescape_meta(s,    out, i, c, n) {
    out = ""; n = length(s)
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (c == "\\" && i < n) {
            c = substr(s, ++i, 1)
            out = out (c == "n" || c == "r" ? " " : c)
        } else out = out c
    }
    return out
}

function base_name(path) {
    sub(/.*\//, "", path)
    sub(/\.csv$/, "", path)
    return path
}

function safe_name(s) {
    gsub(/[^A-Za-z0-9_.+-]/, "_", s)
    return s
}

function read_header(nf,    i, missing, known, req, r, nreq) {
    for (i = 1; i <= nf; i++) col[FILENAME, f[i]] = i
    ncols[FILENAME] = nf
    nreq = split("gpu_name kernel mode variant unroll vec_bytes lever blocks_per_sm " \
                 "occ_achieved_pct buffer_bytes bytes_in_flight_per_sm gbps_median " \
                 "ns_per_hop_median cycles_per_hop_median hops_per_s_median status", req, " ")
    missing = ""; known = 0
    for (r = 1; r <= nreq; r++) {
        if ((FILENAME, req[r]) in col) known++
        else missing = missing (missing == "" ? "" : ", ") req[r]
    }
    if (known == 0)
        fail("no header line: line " FNR " holds data, expected column names such as " \
             "gpu_name,cc,...,status")
    if (missing != "") fail("missing required columns: " missing)
}

function v(name) {
    return fs[col[FILENAME, name]]
}

function matches(    i, n, conds, eq, name) {
    n = split(where, conds, "\037")
    for (i = 1; i <= n; i++) {
        if (conds[i] == "") continue
        eq = index(conds[i], "=")
        name = substr(conds[i], 1, eq - 1)
        if (!((FILENAME, name) in col)) fail("filter names unknown column " name)
        if (v(name) != substr(conds[i], eq + 1)) return 0
    }
    return 1
}

function note_figure(type, key) {
    if (!((type, key) in seen_fig)) {
        seen_fig[type, key] = 1
        fig_order[++nfig] = type SUBSEP key
    }
}

# A figure group is a stream kernel, or a chase mode. An auto run measures each (U, V) at a level
# with one lever or the other, so its curves join across levers; only a run that measured the same
# point with two levers (--lever both) gets a figure per lever.
function check_row(    kernel, mode, lever, type, group, pt) {
    if (v("status") != "ok") return
    nok++
    kernel = v("kernel"); mode = v("mode"); lever = v("lever")
    if (kernel != "chase") {
        type = "stream"; group = kernel
    } else if (mode == "latency" || mode == "latency-cold") {
        note_figure("ladder", mode)
        return
    } else if (mode == "warp" || mode == "thread") {
        type = "chase"; group = mode
        if (!(mode in cmode)) { cmode[mode] = 1; nchase_modes++ }
    } else return
    note_figure(type, group)
    if (!((type, group, lever) in seen_lever)) {
        seen_lever[type, group, lever] = 1
        lever_at[type, group, ++nlevers[type, group]] = lever
    }
    pt = type SUBSEP group SUBSEP mode SUBSEP v("unroll") SUBSEP v("vec_bytes") SUBSEP \
         v("blocks_per_sm")
    if (!(pt in lever_of_point)) lever_of_point[pt] = lever
    else if (lever_of_point[pt] != lever) per_lever[type, group] = 1
}

function print_figure(type, where, suffix, desc) {
    if (type == "stream") {
        printf "fig\toccupancy\t%s\toccupancy-%s\t%s\n", where, suffix, clean(desc)
        printf "fig\tinflight\t%s\tinflight-%s\t%s\n", where, suffix, clean(desc)
    } else printf "fig\tchase\t%s\t%s\t%s\n", where, suffix, clean(desc)
}

function print_figures(    i, l, n, parts, type, group, w, suffix, desc, lever, levers) {
    for (i = 1; i <= nfig; i++) {
        split(fig_order[i], parts, SUBSEP)
        type = parts[1]; group = parts[2]
        if (type == "ladder") {
            if (group == "latency")
                printf "fig\tladder\tkernel=chase\037mode=latency\tladder\tchase latency ladder\n"
            else
                printf "fig\tladder\tkernel=chase\037mode=%s\tladder-cold\tchase latency ladder, cold: L2 flushed before each pass\n", group
            continue
        }
        if (type == "stream") {
            w = "kernel=" group; suffix = safe_name(group); desc = group
        } else {
            w = "kernel=chase\037mode=" group
            suffix = "chase" (nchase_modes > 1 ? "-" safe_name(group) : "")
            desc = "chase, " group " mode"
        }
        n = nlevers[type, group]
        if ((type, group) in per_lever) {
            for (l = 1; l <= n; l++) {
                lever = lever_at[type, group, l]
                print_figure(type, w "\037lever=" lever, suffix "-" safe_name(lever),
                             desc ", lever " lever)
            }
        } else {
            levers = lever_at[type, group, 1]
            for (l = 2; l <= n; l++) levers = levers " + " lever_at[type, group, l]
            print_figure(type, w, suffix, desc (n > 1 ? ", levers " : ", lever ") levers)
        }
    }
}

function numeric_less(a, b) {
    if (isnum(a) && isnum(b)) return a + 0 < b + 0
    return a "" < b ""
}

# Row order: file, then each PLOT_BY column, then x.
function row_less(i, j,    k) {
    if (r_set[i] != r_set[j]) return r_set[i] < r_set[j]
    for (k = 1; k <= nby; k++)
        if (r_by[i, k] != r_by[j, k]) return numeric_less(r_by[i, k], r_by[j, k])
    return r_x[i] + 0 < r_x[j] + 0
}

function sort_rows(    gap, i, j, t) {
    for (i = 1; i <= nrows; i++) order[i] = i
    for (gap = int(nrows / 2); gap > 0; gap = int(gap / 2))
        for (i = gap + 1; i <= nrows; i++) {
            t = order[i]
            for (j = i; j > gap && row_less(t, order[j - gap]); j -= gap) order[j] = order[j - gap]
            order[j] = t
        }
}

function rank_by_columns(    k, i, vals, nv, a, b, t, key) {
    for (k = 1; k <= nby; k++) {
        nv = 0
        split("", vals)
        for (i = 1; i <= nrows; i++)
            if (!((k, r_by[i, k]) in is_val)) { is_val[k, r_by[i, k]] = 1; vals[++nv] = r_by[i, k] }
        for (a = 2; a <= nv; a++)
            for (b = a; b > 1 && numeric_less(vals[b], vals[b - 1]); b--) {
                t = vals[b]; vals[b] = vals[b - 1]; vals[b - 1] = t
            }
        for (i = 1; i <= nv; i++) rank[k, vals[i]] = i
    }
}

function select_row(    xv, yv, k, norm_v) {
    if (v("status") != "ok" || !matches()) return
    xv = v(xcol); yv = v(ycol)
    if (!isnum(xv) || !isnum(yv)) return
    if (positive_x && xv + 0 <= 0) return
    if (normkey != "") {
        norm_v = meta[FILENAME, normkey]
        if (!isnum(norm_v) || norm_v + 0 <= 0)
            fail("metadata " normkey " is missing or not a positive number; cannot normalise")
        yv = 100 * yv / norm_v
    }
    nrows++
    selected[FILENAME]++
    r_set[nrows] = nfiles; r_x[nrows] = xv; r_y[nrows] = yv
    for (k = 1; k <= nby; k++) r_by[nrows, k] = clean(v(by[k]))
    for (k = 1; k <= nkeep; k++) r_keep[nrows, k] = clean(v(keep[k]))
}

function print_selection(    i, k, n, r, g, prev, head) {
    for (i = 1; i <= nfiles; i++)
        if (!(files[i] in selected))
            fail_in(files[i], what ": no ok rows with numeric " xcol " and " ycol)
    for (i = 1; i <= nfiles; i++) {
        label[i] = meta[files[i], "gpu_name"]
        if (label[i] == "") label[i] = files[i]
        nlabel[label[i]]++
    }
    for (i = 1; i <= nfiles; i++)
        if (nlabel[label[i]] > 1) label[i] = label[i] " (" base_name(files[i]) ")"
    sort_rows()
    rank_by_columns()
    head = "set_idx\tlabel"
    for (k = 1; k <= nby; k++) head = head "\t" by[k]
    for (k = 1; k <= nby; k++) head = head "\t" by[k] "_rank"
    head = head "\t" xcol "\t" (normkey != "" ? "pct_of_" normkey : ycol)
    for (k = 1; k <= nkeep; k++) head = head "\t" keep[k]
    prev = ""
    for (n = 1; n <= nrows; n++) {
        r = order[n]
        g = r_set[r]
        for (k = 1; k <= nby; k++) g = g SUBSEP r_by[r, k]
        if (g != prev) {
            if (prev != "") printf "\n\n"
            print head
            prev = g
        }
        printf "%d\t%s", r_set[r], clean(label[r_set[r]])
        for (k = 1; k <= nby; k++) printf "\t%s", r_by[r, k]
        for (k = 1; k <= nby; k++) printf "\t%d", rank[k, r_by[r, k]]
        printf "\t%s\t%.10g", r_x[r], r_y[r]
        for (k = 1; k <= nkeep; k++) printf "\t%s", r_keep[r, k]
        printf "\n"
    }
}

BEGIN {
    if (task != "check" && task != "select") {
        print "plots: csvsel.awk: task must be check or select" > "/dev/stderr"
        failed = 1
        exit 2
    }
    where = ENVIRON["PLOT_WHERE"]; xcol = ENVIRON["PLOT_X"]; ycol = ENVIRON["PLOT_Y"]
    normkey = ENVIRON["PLOT_NORM"]; what = ENVIRON["PLOT_WHAT"]
    positive_x = ENVIRON["PLOT_POSITIVE_X"] == "1"
    nby = ENVIRON["PLOT_BY"] == "" ? 0 : split(ENVIRON["PLOT_BY"], by, ",")
    nkeep = ENVIRON["PLOT_KEEP"] == "" ? 0 : split(ENVIRON["PLOT_KEEP"], keep, ",")
}

FNR == 1 {
    files[++nfiles] = FILENAME
    has_header = 0
    ndata = 0
}

{ sub(/\r$/, "") }

/^#/ {
    line = substr($0, 2)
    eq = index(line, "=")
    if (eq > 0) {
        key = substr(line, 1, eq - 1)
        gsub(/^[ \t]+|[ \t]+$/, "", key)
        meta[FILENAME, key] = clean(unescape_meta(substr(line, eq + 1)))
        if (!((FILENAME, key) in meta_seen)) { meta_seen[FILENAME, key] = 1; keys[++nkeys] = key }
    }
    next
}

/^[ \t]*$/ { next }

{
    if (has_header) {
        nf = split_csv($0, fs)
        if (nf < 0) fail("line " FNR ": unterminated quoted field")
        if (nf != ncols[FILENAME])
            fail("line " FNR " has " nf " fields, the header has " ncols[FILENAME])
        ndata++
        rows_in[FILENAME]++
        if (task == "check") check_row()
        else select_row()
        next
    }
    nf = split_csv($0, f)
    if (nf < 0) fail("line " FNR ": unterminated quoted field")
    read_header(nf)
    has_header = 1
    header_seen[FILENAME] = 1
}

END {
    if (failed) exit 2
    for (i = 1; i <= nfiles; i++) {
        if (!(files[i] in header_seen))
            fail_in(files[i], "no header line: only metadata and comments")
        if (!(files[i] in rows_in)) fail_in(files[i], "no data rows after the header")
    }
    if (task == "select") {
        print_selection()
        exit 0
    }
    if (nok == 0) fail_in(files[1], "no ok rows to plot: all " ndata " rows are skip or fail")
    for (i = 1; i <= nkeys; i++) printf "meta\t%s\t%s\n", keys[i], meta[files[1], keys[i]]
    print_figures()
}
