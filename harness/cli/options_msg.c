/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_msg.c: appending, quoting and the usage message of the option modules. */
#include "options_msg.h"

#include "exitcodes.h"

#include <stdio.h>
#include <string.h>

void occ_msg_append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (*at >= len) return;
    va_start(ap, fmt);
    n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    *at = n < 0 ? len : *at + (size_t)n < len ? *at + (size_t)n : len;
}

OccQuote occ_msg_quote(const char *s, size_t len)
{
    OccQuote q;
    /* A UTF-8 byte order mark (a file saved by an editor that adds one) is invisible in a
     * terminal: it is named instead of shown. */
    const char *bom = "";
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
        bom = "<U+FEFF BOM>";
        s += 3;
        len -= 3;
    }
    const int cut = len > OCC_MSG_QUOTE_MAX;
    snprintf(q.s, sizeof q.s, "%s%.*s%s", bom, (int)(cut ? OCC_MSG_QUOTE_MAX : len), s,
             cut ? "..." : "");
    return q;
}

int occ_msg_vusage(char *err, size_t err_len, const char *fmt, va_list ap)
{
    if (err != NULL && err_len > 0) {
        vsnprintf(err, err_len, fmt, ap);
        /* The message quotes what was typed: a control byte in it (a newline) would break the
         * one-line promise, so each shows as '?'. */
        for (char *p = err; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
    }
    return OCC_EXIT_USAGE;
}

int occ_msg_usage(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = occ_msg_vusage(err, err_len, fmt, ap);
    va_end(ap);
    return rc;
}
