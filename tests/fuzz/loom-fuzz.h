/* loom-fuzz.h — what the libFuzzer targets share.
 *
 * Each target is one LLVMFuzzerTestOneInput () over one part of the core that transcript bytes
 * reach. A crash, a sanitizer report, a leak, a hang, a GLib critical or warning, or a broken
 * promise of the part's header (checked with g_assert) is a finding.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

G_BEGIN_DECLS

int LLVMFuzzerInitialize (int    *argc,
                          char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Makes criticals and warnings abort, as G_DEBUG=fatal-warnings does in the tests: a
 * g_return_if_fail () that hostile input can trip is a bug. Call from LLVMFuzzerInitialize (). */
void loom_fuzz_init (void);

/* A private folder for the whole run, made once and removed at exit. */
const char *loom_fuzz_tmpdir (void);

/* Writes @size bytes to @path, creating the folders on the way. */
void loom_fuzz_write_file (const char    *path,
                           const uint8_t *data,
                           size_t         size);

/* Imports @data as the one file @relative_path (below the run's folder) with the format forced
 * to @source, as `loom import --source SOURCE FILE` does, into a fresh store. */
void loom_fuzz_import (const char    *source,
                       const char    *relative_path,
                       const uint8_t *data,
                       size_t         size);

/* Imports @data as loom_fuzz_import () does, as the file @relative_stem.jsonl when
 * loom_fuzz_looks_like_jsonl () says so, else as @relative_stem.json: the formats that have a
 * JSON Lines file and an older whole-document one. */
void loom_fuzz_import_json_or_jsonl (const char    *source,
                                     const char    *relative_stem,
                                     const uint8_t *data,
                                     size_t         size);

/* Whether the first line of @data is a whole JSON value: a JSON Lines file rather than one
 * pretty-printed document, whose first line is a lone "{". */
gboolean loom_fuzz_looks_like_jsonl (const uint8_t *data,
                                     size_t         size);

G_END_DECLS
