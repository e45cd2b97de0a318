/* loom-jsonl-reader.h — JSON Lines records out of hostile files.
 *
 * Files arrive with no final newline, two objects on one line, lines of a hundred megabytes,
 * invalid UTF-8, unpaired surrogate escapes, nesting thousands deep and half-written last lines.
 * The reader turns each into either a parsed record or a warning naming the line, and never
 * holds more than one line in memory.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-json-value.h"

G_BEGIN_DECLS

/* Deeper records are refused before parsing, with a warning that says so rather than a parse
 * error. */
#define LOOM_JSONL_MAX_DEPTH 512

/* A record (a line of JSON Lines, or a whole-document file) larger than this is skipped with a
 * warning, read past in chunks and never held whole: a transcript must not cost the importer
 * all its memory. The environment variable LOOM_MAX_RECORD_BYTES (bytes) lowers it, for tests. */
#define LOOM_MAX_RECORD_BYTES_DEFAULT (G_GUINT64_CONSTANT (256) * 1024 * 1024)

/* The limit in force: the default, or LOOM_MAX_RECORD_BYTES when that is lower. */
guint64 loom_max_record_bytes (void);
/* The warning for a record of @size bytes over the limit, without file and line:
 * "a record of 300 MB is over the 256 MB limit; skipped" (@what: "record", "document"). */
char   *loom_record_too_large_message (const char *what,
                                       guint64     size);

typedef struct _LoomJsonlReader LoomJsonlReader;

typedef enum
{
  LOOM_JSONL_RECORD, /* *record is set */
  LOOM_JSONL_BAD,    /* *problem says what was wrong with the record on this line */
  LOOM_JSONL_END,    /* nothing more that is complete */
  LOOM_JSONL_ERROR,  /* reading the file failed */
} LoomJsonlResult;

/* Starts at byte @offset, which is the start of line @line + 1. */
LoomJsonlReader *loom_jsonl_reader_new (const char *path,
                                        guint64     offset,
                                        guint64     line,
                                        GError    **error);
void             loom_jsonl_reader_free (LoomJsonlReader *reader);

/* The value stays valid until the next call. */
LoomJsonlResult loom_jsonl_reader_next (LoomJsonlReader *reader,
                                        const LoomJson **record,
                                        char           **problem,
                                        GError         **error);
/* The line of the last result (1-based). */
guint64         loom_jsonl_reader_get_line (LoomJsonlReader *reader);
/* Where the next pass starts: after the last line that was complete and consumed. */
guint64         loom_jsonl_reader_get_offset (LoomJsonlReader *reader);
guint64         loom_jsonl_reader_get_lines_consumed (LoomJsonlReader *reader);
guint64         loom_jsonl_reader_get_records (LoomJsonlReader *reader);
/* TRUE when the last line had no newline and did not parse: it waits for the next pass. */
gboolean        loom_jsonl_reader_has_pending_tail (LoomJsonlReader *reader);

/* Exposed for tests: finds where top-level JSON values end in @text, refusing nesting deeper
 * than @max_depth. Returns the number of values found (up to @max_values), their end offsets in
 * @ends; -1 when a value nests too deep. */
int   loom_jsonl_split_values (const char *text,
                               gsize       len,
                               int         max_depth,
                               gsize      *ends,
                               int         max_values);
/* Rewrites unpaired \uD800–\uDFFF escapes as \uFFFD in place (same length). Returns how many. */
guint loom_jsonl_fix_surrogates (char *text,
                                 gsize len);
/* The same, and when @first_fixed is not NULL and some were fixed, sets it to the offset of the
 * first: a whole document's warning names its line. */
guint loom_jsonl_fix_surrogates_full (char  *text,
                                      gsize  len,
                                      gsize *first_fixed);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomJsonlReader, loom_jsonl_reader_free)

G_END_DECLS
