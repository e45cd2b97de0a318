/* loom-export.h — a session as a package: a folder a person keeps, outside the store.
 *
 * {destination}/{Title - YYYY-MM-DD}/ holds conversation.md (the timeline at a chosen detail
 * level), metadata.json (every field of the session), session.jsonl (its rows as the store
 * keeps them, which `loom import` reads back), artifacts/ and manifest.json (what the
 * package is, with the size and SHA-256 of every other file). artifacts/files/ holds the files
 * the session touched, copied from its workspace (its cwd) as they are now, at their paths
 * below it; artifacts/changes/NNN-<name>.diff each change it made, as a unified diff of what
 * it recorded. The two never share a name: a workspace file at changes/… lands in
 * artifacts/files/changes/…. The manifest's "artifacts" lists every touched file, copied or
 * not, with its status: "copied", "missing", "too-large", "outside-workspace",
 * "not-a-regular-file", "symlink", "binary", "unreadable", "name-taken" or "secret-in-name",
 * and a "reason" for a person when it was not copied.
 *
 * A redacted package replaces every secret (loom-redact.h) in every file: the conversation,
 * session.jsonl (the strings of a record's payload once decoded), metadata.json, the manifest's
 * texts, the text artifacts and the diffs; the title, and so the folder's name, loses the word
 * that ends it when the store cut it. A binary artifact, and a file or diff whose name holds a
 * secret, are left out. The manifest's "redactions" ({total, secrets, families}; null in the
 * other modes) counts what was replaced in the other files.
 *
 * A compact package (loom-export-compact.c) is a text for a language model: its
 * conversation.md has a header (objective, files touched, outcome, token estimate), tool
 * outputs bounded to their first and last lines, no text twice, and stays within the token
 * budget (LoomExportOptions.budget) by loom_export_estimate_tokens (). It is redacted like a
 * redacted package, holds no session.jsonl (it does not import back) and no sub-agents'
 * packages (each is one line of the text); the manifest's "budget" and "estimated_tokens" are
 * its figures (null in the other modes). The folder appears whole or not at all: it is written
 * beside its final name under a temporary one and renamed into place, never over anything that
 * exists.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-store.h"

G_BEGIN_DECLS

/* The version of the package's layout, written in its manifest. */
#define LOOM_EXPORT_FORMAT_VERSION 1

/* Longest package folder name, in bytes, before a " (2)" is added: well under the 255 bytes of
 * a file name on every common filesystem, with room for the temporary name built from it. */
#define LOOM_EXPORT_NAME_MAX_BYTES 160

typedef enum
{
  LOOM_EXPORT_DETAIL_MESSAGES, /* prompts and replies */
  LOOM_EXPORT_DETAIL_TOOLS,    /* + tool calls with their input and result */
  LOOM_EXPORT_DETAIL_FULL,     /* + reasoning, notices, compactions, errors */
} LoomExportDetail;

typedef enum
{
  LOOM_EXPORT_MODE_FULL,
  LOOM_EXPORT_MODE_REDACTED, /* every secret replaced by a typed placeholder */
  LOOM_EXPORT_MODE_COMPACT,  /* a text for a language model, under a token budget; redacted */
} LoomExportMode;

/* The token budget of a compact package when none is given, and the bounds of one given. */
#define LOOM_EXPORT_DEFAULT_BUDGET 32000
#define LOOM_EXPORT_MIN_BUDGET     1000
#define LOOM_EXPORT_MAX_BUDGET     2000000

/* The tokens a compact package counts in the @length bytes of @text (-1: up to the NUL): the
 * ASCII bytes divided by 4, rounded up, plus 1 for every other character (a UTF-8 lead byte).
 * English and code run at about four bytes a token, a CJK character at about one. */
guint loom_export_estimate_tokens (const char *text,
                                   gssize      length);

/* Where an export is, for a progress bar: reported at each step of each package (a sub-agent's
 * package within its parent's reports its own steps, under its own session id) and for each
 * artifact. Valid during the call only. */
typedef struct
{
  const char *session_id; /* the uuid of the package being written */
  const char *step;       /* "conversation", "metadata", "session-data", "artifacts", "subagents",
                     * "manifest" */
  const char *artifact;   /* during "artifacts": the file being copied, else NULL */
  guint       n_artifacts_done;  /* during "artifacts" */
  guint       n_artifacts_total; /* the files touched, copied or not */
} LoomExportProgress;

/* Called in the thread that exports (a worker's, for loom_export_session_async ()). */
typedef void (*LoomExportProgressFunc) (const LoomExportProgress *progress,
                                        gpointer                  user_data);

typedef struct
{
  LoomExportDetail       detail;
  LoomExportMode         mode;
  /* The caps of artifacts/: a file larger than the first, or that would take the copies past
   * the second, is listed as "too-large" and not copied. 0: LOOM_ARTIFACT_DEFAULT_MAX_FILE_SIZE
   * (10 MB) and LOOM_ARTIFACT_DEFAULT_MAX_TOTAL_SIZE (200 MB). */
  guint64                max_artifact_size;
  guint64                max_artifacts_size;
  /* A compact package's token budget, from LOOM_EXPORT_MIN_BUDGET to LOOM_EXPORT_MAX_BUDGET;
   * 0: LOOM_EXPORT_DEFAULT_BUDGET. Other modes have none. */
  guint                  budget;
  /* May be NULL. */
  LoomExportProgressFunc progress;
  gpointer               progress_data;
  /* The package says the session is archived, since the time of the export, whatever the
   * store says now: an archive sweep's backup, written before the session is archived, brings
   * it back archived when it is restored. */
  gboolean               as_archived;
  /* A package staged to be read once and removed (an encrypted backup's plaintext): it is not
   * made durable before it is named, which would wait for the disk for nothing. */
  gboolean               transient;
} LoomExportOptions;

#define LOOM_EXPORT_OPTIONS_INIT \
  { LOOM_EXPORT_DETAIL_FULL, LOOM_EXPORT_MODE_FULL, 0, 0, 0, NULL, NULL, FALSE, FALSE }

/* What one export wrote. */
typedef struct
{
  char   *session_id;          /* the session's uuid */
  char   *path;                /* the package folder, under its final name */
  guint   n_files;             /* every file of the package, the manifest included */
  guint64 n_bytes;             /* their sizes added up */
  guint   n_artifacts;         /* files copied into artifacts/files/ */
  guint   n_artifacts_missing; /* files the session touched that are not there, any reason */
  guint   n_redactions;        /* secrets replaced in the package, each occurrence counted */
  guint   n_subagents;         /* sub-agent packages in subagents/, at every depth */
} LoomExportResult;

void loom_export_result_free (LoomExportResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomExportResult, loom_export_result_free)

/* The words of the CLI and the manifest: "messages", "tools", "full"; "full", "redacted",
 * "compact". */
const char *loom_export_detail_to_string (LoomExportDetail detail);
gboolean    loom_export_detail_from_string (const char       *text,
                                            LoomExportDetail *detail);
const char *loom_export_mode_to_string (LoomExportMode mode);
gboolean    loom_export_mode_from_string (const char     *text,
                                          LoomExportMode *mode);

/* The package folder's name for a session of @title created at @created_at (Unix ms, 0:
 * unknown): the title, dated as the naming convention wants unless it is already, made safe on
 * every filesystem (no '/', '\\' or other character Windows refuses, no control or invisible
 * characters, no leading dot, no trailing dot or space, not a reserved Windows name, NFC, at
 * most LOOM_EXPORT_NAME_MAX_BYTES bytes cut on a character boundary, the date kept). Never
 * NULL or empty. */
char *loom_export_package_name (const char *title,
                                gint64      created_at);

/* Writes the package of the session @session_id (a uuid or an unambiguous prefix) into the
 * existing folder @destination_dir, which may not be a symbolic link; @options NULL means
 * LOOM_EXPORT_OPTIONS_INIT. Blocks: call it from a worker or the CLI. On failure or
 * cancellation nothing is left behind, neither under the final name nor under a temporary
 * one. */
gboolean loom_export_session (LoomStore               *store,
                              const char              *session_id,
                              const char              *destination_dir,
                              const LoomExportOptions *options,
                              LoomExportResult       **result,
                              GCancellable            *cancellable,
                              GError                 **error);

/* Exports each of @session_ids (NULL-terminated) as loom_export_session () does, @n_workers at
 * a time (0: one per processor), each worker on a connection of its own to @store's file, and
 * returns when all are done. Sets @results and @errors to arrays of as many entries, in the
 * order of @session_ids: a result, or NULL and its error. Free them with
 * loom_export_results_free (). @options' progress function, if any, is called from the
 * workers, at the same time from several. Blocks: call it from the CLI or a worker. */
void loom_export_sessions (LoomStore               *store,
                           const char *const       *session_ids,
                           const char              *destination_dir,
                           const LoomExportOptions *options,
                           guint                    n_workers,
                           LoomExportResult      ***results,
                           GError                ***errors,
                           GCancellable            *cancellable);
/* Frees what loom_export_sessions () returned for @n_sessions sessions. */
void loom_export_results_free (LoomExportResult **results,
                               GError           **errors,
                               guint              n_sessions);

/* The same in a GTask thread, on a connection of its own to @store's file. */
void              loom_export_session_async (LoomStore               *store,
                                             const char              *session_id,
                                             const char              *destination_dir,
                                             const LoomExportOptions *options,
                                             GCancellable            *cancellable,
                                             GAsyncReadyCallback      callback,
                                             gpointer                 user_data);
LoomExportResult *loom_export_session_finish (LoomStore    *store,
                                              GAsyncResult *result,
                                              GError      **error);

G_END_DECLS
