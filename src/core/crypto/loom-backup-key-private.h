/* loom-backup-key-private.h — what the keyring half of the backup key shares with the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-backup-key.h"

G_BEGIN_DECLS

/* A key of LOOM_BACKUP_KEY_SIZE @bytes, copied into guarded memory; the caller wipes @bytes. */
LoomBackupKey *loom_backup_key_new_from_bytes (const guint8 *bytes);

G_END_DECLS
