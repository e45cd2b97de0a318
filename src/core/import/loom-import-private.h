/* loom-import-private.h — what loom-import.c shares with loom-import-collect.c (the files a
 * pass reads) and loom-import-file.c (the per-file import context).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-import.h"
#include "loom-importer.h"
#include "loom-json-value.h"
#include "loom-jsonl-reader.h"
#include "loom-store-writer.h"

G_BEGIN_DECLS

/* A file a pass reads, and the format that reads it. */
typedef struct
{
  char               *path;    /* resolved: loom_import_canonicalize () */
  char               *spelled; /* as it was reached, when that differs; else NULL */
  const LoomImporter *importer;
  guint64             size;
} LoomImportCandidate;

void loom_import_candidate_free (gpointer candidate);
/* By path, for g_ptr_array_sort (). */
int  loom_import_candidate_compare (gconstpointer a,
                                    gconstpointer b);

/* Fills @candidates (LoomImportCandidate, sorted by path) with the files to import, each by
 * its resolved path (loom_import_canonicalize ()). @roots receives the folders a whole pass
 * went through, whose deleted files count as the agent's cleanup; @deleted, the deleted files
 * a targeted pass was told about; both in their resolved spellings too. */
gboolean loom_import_collect (const LoomImportOptions *options,
                              LoomImportStats         *stats,
                              GPtrArray               *candidates,
                              GPtrArray               *roots,
                              GPtrArray               *deleted,
                              GError                 **error);

/* loom-import-paths.c: one name per file, whichever way it was reached. Resolves the
 * candidates' paths (keeping how each was spelt) and drops the second of two that are one file;
 * adds the resolved spellings of @roots and @deleted beside theirs. */
void loom_import_canonicalize (GPtrArray *candidates,
                               GPtrArray *roots,
                               GPtrArray *deleted);

typedef struct
{
  gint64 input;
  gint64 output;
  gint64 cache_read;
  gint64 cache_creation;
  gint64 reasoning;
} LoomTokenTotals;

struct _LoomImportFile
{
  LoomStoreWriter    *writer; /* the pass's, borrowed */
  const LoomImporter *importer;
  LoomImportStats    *stats;
  char               *path;
  gboolean            reset;
  guint64             start; /* where this pass began reading: what earlier ones read */
  JsonObject         *state;
  LoomJsonlReader    *reader;
  GHashTable         *sessions; /* row id → TRUE: touched this pass */
  GHashTable         *next_seq; /* row id → gint64 * */
  GHashTable         *tokens;   /* row id → LoomTokenTotals * */
  GHashTable         *models;   /* row id → GStrv, the models the agent reported */
  LoomJsonDoc        *document; /* holds the .json document read last, until the next */
  gboolean            failed_to_read;
  gboolean            ids_checked; /* the state began with LOOM_IMPORT_STATE_IDS */
};

/* A member of every file's state that says its sessions are keyed by the agents' own ids (see
 * loom_import_file_rekey ()): a cursor without it is from an earlier version, and its file is
 * looked at again once even when unchanged, for its format to check whose sessions it holds. */
#define LOOM_IMPORT_STATE_IDS "loom_ids"

LoomImportFile *loom_import_file_new (LoomStoreWriter    *writer,
                                      const LoomImporter *importer,
                                      LoomImportStats    *stats,
                                      const char         *path,
                                      gboolean            reset,
                                      guint64             offset,
                                      guint64             line,
                                      JsonObject         *state,
                                      GError            **error);
void            loom_import_file_free (LoomImportFile *file);
/* Recomputes counts, totals and titles of every session the file touched. */
gboolean        loom_import_file_finish (LoomImportFile *file,
                                         GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomImportFile, loom_import_file_free)

G_END_DECLS
