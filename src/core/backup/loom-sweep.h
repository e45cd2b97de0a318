/* loom-sweep.h — the archive sweep: old sessions backed up, verified, then archived.
 *
 * Eligible: sessions not archived, not in the trash, not a sub-agent's (they travel in their
 * parent's package), whose last activity is older than the threshold. For each approved one,
 * in turn: its backup (loom-backup.h) with as_archived, verified, and only then the session
 * archived, with the backup's path recorded beside it in the same transaction. A session whose
 * backup fails is left unarchived and the sweep goes on; a sweep killed half-way leaves no
 * session archived without its verified backup.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-backup-key.h"
#include "loom-store.h"

G_BEGIN_DECLS

typedef struct
{
  char   *session_id; /* uuid */
  char   *title;
  gint64  last_active; /* Unix ms */
  guint64 message_count;
  char   *model; /* may be NULL */
} LoomSweepCandidate;

void loom_sweep_candidate_free (LoomSweepCandidate *candidate);

/* The sessions eligible at @now (Unix ms) for @older_than_days, oldest first, as an array of
 * LoomSweepCandidate. */
GPtrArray *loom_sweep_find_eligible (LoomStore *store,
                                     guint      older_than_days,
                                     gint64     now,
                                     GError   **error);

typedef struct
{
  const char *session_id;
  const char *title;
  guint       index; /* 0-based, of total */
  guint       total;
  const char *step; /* "backup", "verify", "archive"; the package's own steps come as
                      * "backup" with @export_step set */
  const char *export_step;
} LoomSweepProgress;

typedef void (*LoomSweepProgressFunc) (const LoomSweepProgress *progress,
                                       gpointer                 user_data);

typedef struct
{
  char   *session_id;
  char   *title;
  GError *error;
} LoomSweepFailure;

typedef struct
{
  GPtrArray *archived;    /* of char *: the uuids archived, in order */
  GPtrArray *titles;      /* of char *: their titles, the same order */
  GPtrArray *packages;    /* of char *: the backups' paths, the same order */
  GPtrArray *failed;      /* of LoomSweepFailure */
  guint      n_artifacts; /* files backed up in the packages' artifacts/ */
  gboolean   cancelled;   /* stopped before the end; what was done stays done */
} LoomSweepResult;

void loom_sweep_result_free (LoomSweepResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomSweepResult, loom_sweep_result_free)

/* Sweeps @session_ids (NULL-terminated) into @backup_dir, encrypted with @key when it is not
 * NULL. Blocks. A cancelled sweep returns what it did, with cancelled set. */
LoomSweepResult *loom_sweep_run (LoomStore            *store,
                                 const char *const    *session_ids,
                                 const char           *backup_dir,
                                 const LoomBackupKey  *key,
                                 LoomSweepProgressFunc progress,
                                 gpointer              progress_data,
                                 GCancellable         *cancellable,
                                 GError              **error);

/* The same in a GTask thread on a connection of its own to @store's file; @progress is called
 * from that thread. */
void             loom_sweep_run_async (LoomStore            *store,
                                       const char *const    *session_ids,
                                       const char           *backup_dir,
                                       const LoomBackupKey  *key,
                                       LoomSweepProgressFunc progress,
                                       gpointer              progress_data,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
LoomSweepResult *loom_sweep_run_finish (LoomStore    *store,
                                        GAsyncResult *result,
                                        GError      **error);

G_END_DECLS
