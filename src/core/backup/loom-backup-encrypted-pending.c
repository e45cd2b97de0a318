/* Interim: replaced by loom-backup-encrypted.c once the key and the container land. */
#include "config.h"

#include "loom-backup-private.h"
#include "loom-error.h"

gboolean
loom_backup_write_encrypted (LoomStore               *store,
                             const char              *session_id,
                             const char              *backup_dir,
                             const LoomBackupOptions *options,
                             LoomBackupResult       **result,
                             GCancellable            *cancellable,
                             GError                 **error)
{
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_FAILED, "Encrypted backups are not built in yet");
  return FALSE;
}
