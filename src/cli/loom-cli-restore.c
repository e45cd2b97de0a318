/* loom-cli-restore.c — `loom restore PATH… [--recovery-key-file FILE] [--json]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "loom-backup.h"
#include "loom-cli.h"
#include "loom-error.h"

/* A recovery key is 70 characters written out; a file much larger is not one. */
#define RECOVERY_FILE_MAX_BYTES 4096

static LoomBackupKey *
read_recovery_file (const char *path,
                    GError    **error)
{
  g_autofree char *text = NULL;
  gsize            length = 0;
  LoomBackupKey   *key;

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  if (length > RECOVERY_FILE_MAX_BYTES)
    {
      loom_backup_key_free_text (g_steal_pointer (&text));
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "“%s” is too large to hold a recovery key", path);
      return NULL;
    }
  key = loom_backup_key_new_from_recovery (g_strstrip (text), error);
  if (key == NULL)
    g_prefix_error (error, "“%s”: ", path);
  loom_backup_key_free_text (g_steal_pointer (&text));
  return key;
}

/* Asks the person at the terminal for the recovery key, without echoing what they type. */
static LoomBackupKey *
ask_recovery_key (const GPtrArray *key_ids,
                  GError         **error)
{
  char           line[256] = { 0 };
  struct termios saved, quiet;
  gboolean       echo_off;
  LoomBackupKey *key;

  fprintf (stderr,
           _ ("Some backups were encrypted with a backup key that is not in this keyring "
              "(%s).\nType its recovery key: "),
           (const char *)key_ids->pdata[0]);
  fflush (stderr);
  echo_off = tcgetattr (STDIN_FILENO, &saved) == 0;
  if (echo_off)
    {
      quiet = saved;
      quiet.c_lflag &= ~(tcflag_t)ECHO;
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
    }
  if (fgets (line, sizeof line, stdin) == NULL)
    line[0] = '\0';
  if (echo_off)
    tcsetattr (STDIN_FILENO, TCSAFLUSH, &saved);
  fputc ('\n', stderr);

  key = loom_backup_key_new_from_recovery (g_strstrip (line), error);
  memset (line, 0, sizeof line);
  return key;
}

static void
add_ids (JsonBuilder     *builder,
         const char      *member,
         const GPtrArray *items)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < items->len; i++)
    json_builder_add_string_value (builder, ((LoomRestoreItem *)items->pdata[i])->session_id);
  json_builder_end_array (builder);
}

static void
print_json (const LoomRestoreResult *result)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  add_ids (builder, "restored", result->restored);
  add_ids (builder, "unchanged", result->unchanged);
  json_builder_set_member_name (builder, "failed");
  json_builder_begin_array (builder);
  for (guint i = 0; i < result->failed->len; i++)
    {
      const LoomRestoreItem *item = result->failed->pdata[i];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, item->path);
      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder, item->error->message);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  loom_cli_print_json (root);
}

static void
print_text (const LoomRestoreResult *result)
{
  for (guint i = 0; i < result->restored->len; i++)
    {
      const LoomRestoreItem *item = result->restored->pdata[i];

      printf (_ ("restored   %.8s  %s\n"), item->session_id, item->title ? item->title : "");
    }
  for (guint i = 0; i < result->unchanged->len; i++)
    {
      const LoomRestoreItem *item = result->unchanged->pdata[i];

      printf (_ ("unchanged  %.8s  %s\n"), item->session_id, item->title ? item->title : "");
    }
  for (guint i = 0; i < result->failed->len; i++)
    {
      const LoomRestoreItem *item = result->failed->pdata[i];

      fprintf (stderr, _ ("loom: could not restore “%s”: %s\n"), item->path, item->error->message);
    }
  printf (_ ("%u restored, %u unchanged, %u failed\n"), result->restored->len,
          result->unchanged->len, result->failed->len);
}

/* Restores again, with @recovery_key, the backups that failed for want of a key. */
static gboolean
retry_with_key (LoomStore           *store,
                LoomRestoreResult   *result,
                const LoomBackupKey *recovery_key,
                GError             **error)
{
  LoomRestoreOptions options = LOOM_RESTORE_OPTIONS_INIT;
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (LoomRestoreResult) again = NULL;

  for (guint i = result->failed->len; i-- > 0;)
    {
      LoomRestoreItem *item = result->failed->pdata[i];

      if (g_error_matches (item->error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND))
        {
          g_ptr_array_insert (paths, 0, g_strdup (item->path));
          g_ptr_array_remove_index (result->failed, i);
        }
    }
  g_ptr_array_add (paths, NULL);
  options.recovery_key = recovery_key;
  if (!(again = loom_restore (store, (const char *const *)paths->pdata, &options, NULL, error)))
    return FALSE;
  g_ptr_array_extend_and_steal (result->restored, g_steal_pointer (&again->restored));
  again->restored = g_ptr_array_new ();
  g_ptr_array_extend_and_steal (result->unchanged, g_steal_pointer (&again->unchanged));
  again->unchanged = g_ptr_array_new ();
  g_ptr_array_extend_and_steal (result->failed, g_steal_pointer (&again->failed));
  again->failed = g_ptr_array_new ();
  return TRUE;
}

int
loom_cli_restore (LoomCli *cli,
                  int      argc,
                  char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("PATH…"));
  g_autofree char *recovery_file = NULL;
  g_autoptr (LoomBackupKey) recovery_key = NULL;
  g_autoptr (LoomRestoreResult) result = NULL;
  g_autoptr (GError) error = NULL;
  LoomRestoreOptions options = LOOM_RESTORE_OPTIONS_INIT;
  gboolean           json = FALSE;
  gboolean           keep_key = FALSE;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = {
    { "recovery-key-file", 'k', 0, G_OPTION_ARG_FILENAME, &recovery_file,
      N_ ("Open backups whose key is not in the keyring with the recovery key in this file"),
      N_ ("FILE") },
    { "keep-key", 0, 0, G_OPTION_ARG_NONE, &keep_key,
      N_ ("Keep the backup key of the recovery key given or typed in the login keyring, for "
          "the backups to come"),
      NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL },
    { NULL }
  };

  g_option_context_set_summary (
    context, _ ("Restore sessions from backups: package folders, .loombackup files, or folders "
                "holding them. Each is verified before anything is written; encrypted ones are "
                "opened with the backup key in the login keyring, or with the recovery key. "
                "A session stored already is left as it is."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return loom_cli_usage_error (context, _ ("give at least one backup or folder of backups"));
  if (recovery_file != NULL && !(recovery_key = read_recovery_file (recovery_file, &error)))
    return loom_cli_fail (error);
  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;

  options.recovery_key = recovery_key;
  if (!(result = loom_restore (store, (const char *const *)argv + 1, &options, NULL, &error)))
    return loom_cli_fail (error);

  /* Asked for only when there is someone to answer: never in a script or with --json. */
  if (result->missing_key_ids->len > 0 && recovery_key == NULL && !json && isatty (STDIN_FILENO))
    {
      if (!(recovery_key = ask_recovery_key (result->missing_key_ids, &error)) ||
          !retry_with_key (store, result, recovery_key, &error))
        loom_cli_fail (error);
      g_clear_error (&error);
    }
  /* The key given or typed is kept only when it opened something: a mistyped one is refused by
   * its checksum, and another machine's key that opened nothing is not this history's. */
  if (keep_key && recovery_key != NULL && result->restored->len + result->unchanged->len > 0 &&
      error == NULL && !loom_backup_key_store (recovery_key, NULL, &error))
    loom_cli_fail (error);

  if (json)
    print_json (result);
  else
    print_text (result);
  return result->failed->len == 0 && error == NULL ? LOOM_EXIT_OK : LOOM_EXIT_FAILED;
}
