# SPDX-License-Identifier: Apache-2.0
"""plots/outfile.py: the rule every file the plot scripts write follows, as the C tool's files do
(harness/report/report_file.c): whole or not at all, never through a link. The text goes to a
per-process temporary file beside the target, created exclusively (O_EXCL, O_NOFOLLOW: an
existing file or link of that name is an error, not overwritten), then renamed over the target;
a failure removes the temporary file and leaves the target as it was."""
import os


def write_whole(path, text):
    """Writes text (UTF-8) to path by the rule above; raises OSError when it cannot."""
    tmp = os.path.join(os.path.dirname(path) or ".",
                       ".%s.%d.tmp" % (os.path.basename(path), os.getpid()))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
