/* loom-backup-files.h — the file handling backups share: the private staging folder beside
 * the store, removing a tree we wrote, and naming a finished file without replacing anything.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-store.h"

G_BEGIN_DECLS

/* The folder where packages are staged: in memory (a folder of ours in $XDG_RUNTIME_DIR, else in
 * /dev/shm) when a tmpfs there has room, else "staging" beside @store's file. */
char *loom_backup_staging_folder (LoomStore *store,
                                  GError   **error);

/* A new, empty folder of ours (mode 0700) in the staging folder, for a package that is being
 * encrypted or a backup that is being restored. Its path is returned; remove it with
 * loom_backup_remove_tree (). Stagings left by a process that was killed are removed first
 * when they are more than an hour old. */
char *loom_backup_make_staging (LoomStore *store,
                                GError   **error);

/* Removes @path and everything below it, never following a link (a link is removed, not what
 * it points to). Says nothing: it cleans up after a failure, whose error is the one to tell. */
void loom_backup_remove_tree (const char *path);

/* Opens the folder @path for writing backups into: it must exist and not be a link. */
int loom_backup_open_folder (const char *path,
                             GError    **error);

/* Renames @temp_name in @dir_fd to @name, or "@stem (2)@suffix", "(3)"… when that exists,
 * never replacing anything; returns the name given. */
char *loom_backup_publish_file (int         dir_fd,
                                const char *dir_path,
                                const char *temp_name,
                                const char *stem,
                                const char *suffix,
                                GError    **error);

G_END_DECLS
