/* loom-package-import.h — a session package (loom-export.h) imported back into the store.
 *
 * The package is verified first, whole: every file its manifest lists must be there, a regular
 * file inside the package's folder (reached without following a link), of the listed size and
 * SHA-256; no entry of the folder may be a symbolic link. A package that does not verify is
 * refused with an error naming the file. Then its session.jsonl is written into the store in
 * one transaction, the session under its own uuid and agent ids, and after it the sessions of
 * the sub-agents it started (its manifest's "subagents", each a package of the same layout),
 * linked to it. A session that is stored
 * already (its uuid, or its agent's id) is left as it is: importing a package twice changes
 * nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-store.h"

G_BEGIN_DECLS

/* The package layouts this import reads: the manifest's format_version. */
#define LOOM_PACKAGE_FORMAT_VERSION 1

/* How deep sub-agents' packages (subagents/<name>/, each a package) may nest in a package. */
#define LOOM_PACKAGE_MAX_SUBAGENT_DEPTH 8

typedef struct
{
  char    *session_id; /* the session's uuid */
  char    *title;
  gboolean already_stored; /* nothing was written: the session and its sub-agents were there */
  guint64  n_messages;     /* rows written */
  guint64  n_events;
  guint64  n_summaries;
  guint    n_files_verified;
  guint    n_subagents; /* sub-agents' sessions written, below the package's own */
} LoomPackageImportResult;

void loom_package_import_result_free (LoomPackageImportResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomPackageImportResult, loom_package_import_result_free)

/* Whether @path is a folder holding a manifest.json: what `loom import` takes for a package
 * (whose version loom_import_package () then checks) rather than an agent's folder. */
gboolean loom_package_looks_like_package (const char *path);

/* Verifies the package folder @dir as loom_import_package () does, without importing it: every
 * file its manifest lists (sub-agents' included) read back and compared with its size and
 * SHA-256. Sets @n_files (may be NULL) to the files verified. LOOM_ERROR_CORRUPT naming the
 * file that differs. Blocks. */
gboolean loom_package_verify (const char   *dir,
                              guint        *n_files,
                              GCancellable *cancellable,
                              GError      **error);

/* Verifies the package folder @dir and imports its session into @store. Blocks. A package
 * that does not verify, a compact one and one without session.jsonl are refused
 * (LOOM_ERROR_CORRUPT, LOOM_ERROR_INVALID_ARGUMENT, LOOM_ERROR_NEWER_SCHEMA) and the store is
 * left as it was. */
gboolean loom_import_package (LoomStore                *store,
                              const char               *dir,
                              LoomPackageImportResult **result,
                              GCancellable             *cancellable,
                              GError                  **error);

/* The same in a GTask thread, on a connection of its own to @store's file: for the app, whose
 * window keeps its own connection meanwhile and sees the sessions with its next read. */
void                     loom_import_package_async (LoomStore          *store,
                                                    const char         *dir,
                                                    GCancellable       *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer            user_data);
LoomPackageImportResult *loom_import_package_finish (LoomStore    *store,
                                                     GAsyncResult *result,
                                                     GError      **error);

G_END_DECLS
