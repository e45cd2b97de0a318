/* loom-backup-key.h — the backup key: 256 random bits that encrypt every backup, kept in the
 * login keyring, and the recovery key a person writes down to restore on a new machine.
 *
 * The key's id is derived from the key itself (the first 8 bytes of a keyed BLAKE2b hash, as 16
 * lowercase hex digits), so a recovery key alone tells which backups it opens.
 *
 * The recovery key is the key's 32 bytes and a 3-byte checksum (the start of another BLAKE2b
 * hash of the key) in Crockford's base32: 56 characters shown as 14 groups of 4 joined by '-'.
 * Reading one back ignores case, spaces and hyphens and reads O as 0 and I or L as 1; a wrong
 * character or a missing one fails the checksum and is refused, never turned into another key.
 *
 * In the keyring the key is an item of the schema "org.intentloom.History.BackupKey" with the
 * attribute "key-id", its secret the key in base64. It is never written anywhere else in the
 * clear and never logged: key bytes live in memory from sodium_malloc () and are wiped when
 * freed.
 *
 * Keyring failures (no secret service on the bus, a locked collection the person did not
 * unlock, an item that went away) are LOOM_ERROR_KEYRING errors that say what to do; a
 * missing key is LOOM_ERROR_NOT_FOUND. Callers that encrypt stop on any of them, before they
 * write anything.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LOOM_BACKUP_KEY_SIZE     32 /* bytes */
#define LOOM_BACKUP_KEY_ID_CHARS 16 /* hex digits */

typedef struct _LoomBackupKey LoomBackupKey;

/* A new random key. Never NULL (libsodium aborts when it has no randomness). */
LoomBackupKey *loom_backup_key_generate (void);
/* The key written down as @recovery_text, or NULL and LOOM_ERROR_INVALID_ARGUMENT saying what
 * is wrong (a character that is not base32, too few or too many, the checksum). */
LoomBackupKey *loom_backup_key_new_from_recovery (const char *recovery_text,
                                                  GError    **error);
LoomBackupKey *loom_backup_key_copy (const LoomBackupKey *key);
void           loom_backup_key_free (LoomBackupKey *key);

const char   *loom_backup_key_get_id (const LoomBackupKey *key);
/* LOOM_BACKUP_KEY_SIZE bytes, valid as long as @key. */
const guint8 *loom_backup_key_get_bytes (const LoomBackupKey *key);
/* The recovery key, "XXXX-XXXX-…". Free it with loom_backup_key_free_text (), which wipes it. */
char         *loom_backup_key_dup_recovery (const LoomBackupKey *key);
void          loom_backup_key_free_text (char *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomBackupKey, loom_backup_key_free)

/* ——— The login keyring (blocking: call from the CLI or a worker) ——— */

/* The id of the backup key in the keyring, or NULL without an error when there is none. With
 * several (created on other machines and restored here), the newest. */
char          *loom_backup_key_find_id (GCancellable *cancellable,
                                        GError      **error);
/* The key of @key_id, or with @key_id NULL the one loom_backup_key_find_id () names.
 * LOOM_ERROR_NOT_FOUND when there is none. */
LoomBackupKey *loom_backup_key_load (const char   *key_id,
                                     GCancellable *cancellable,
                                     GError      **error);
/* Generates a key and stores it; LOOM_ERROR_EXISTS when the keyring holds one already. */
LoomBackupKey *loom_backup_key_create (GCancellable *cancellable,
                                       GError      **error);
/* The key in the keyring, created when there is none (*@created is then TRUE, and the caller
 * shows the recovery key once). */
LoomBackupKey *loom_backup_key_load_or_create (gboolean     *created,
                                               GCancellable *cancellable,
                                               GError      **error);
/* Stores @key (one read from a recovery key on a new machine), so that later backups use it. */
gboolean       loom_backup_key_store (const LoomBackupKey *key,
                                      GCancellable        *cancellable,
                                      GError             **error);

G_END_DECLS
