/* loom-recovery-key-dialog.h — the recovery key shown to be written down, and asked for back.
 *
 * Shown: once, when the backup key is created (by the preferences or by a sweep), and again on
 * request; monospace, selectable, with a Copy button and the advice to write it down. Asked
 * for: when backups need a key that is not in the keyring (a new machine), with an entry that
 * checks what is typed as it is typed, so that a typo gives the checksum's error before
 * anything is tried, and the offer to keep the key in the keyring.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-backup-key.h"

G_BEGIN_DECLS

/* Presents the recovery key of @key over @parent; returns the dialog (owned by GTK). */
AdwMessageDialog *loom_recovery_key_dialog_show (GtkWindow           *parent,
                                                 const LoomBackupKey *key);

/* Asks for a recovery key over @parent; @key_ids, when not NULL, are the ids of the keys the
 * backups need, named in the dialog. */
void           loom_recovery_key_ask_async (GtkWindow          *parent,
                                            const char *const  *key_ids,
                                            GCancellable       *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer            user_data);
/* The key typed, or NULL when the person cancelled (G_IO_ERROR_CANCELLED); @keep: whether they
 * asked for it to be kept in the keyring. */
LoomBackupKey *loom_recovery_key_ask_finish (GAsyncResult *result,
                                             gboolean     *keep,
                                             GError      **error);

G_END_DECLS
