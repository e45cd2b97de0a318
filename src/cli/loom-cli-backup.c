/* loom-cli-backup.c — `loom backup --to DIR [--encrypt] [--quiet-minutes N] [--json]`: the
 * backup keeper once, as the app runs it in the background (loom-backup-keeper.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "loom-backup-keeper.h"
#include "loom-cli.h"
#include "loom-error.h"
#include "loom-time.h"

/* A week: a longer quiet time is a typing mistake rather than a wish. */
#define MAX_QUIET_MINUTES     (7 * 24 * 60)
#define DEFAULT_QUIET_MINUTES 10

static void
add_strings (JsonBuilder *builder,
             const char  *name,
             GPtrArray   *strings)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (strings, i));
  json_builder_end_array (builder);
}

static JsonNode *
result_to_json (const LoomKeeperResult *result)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  add_strings (builder, "backed_up", result->backed_up);
  add_strings (builder, "backups", result->paths);
  add_strings (builder, "replaced", result->replaced);
  json_builder_set_member_name (builder, "failed");
  json_builder_begin_array (builder);
  for (guint i = 0; i < result->failed->len; i++)
    {
      const LoomKeeperFailure *failure = g_ptr_array_index (result->failed, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, failure->session_id);
      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder, failure->error->message);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static void
print_summary (const LoomKeeperResult *result)
{
  if (result->backed_up->len == 0 && result->failed->len == 0)
    {
      printf (_ ("Every backup is up to date.\n"));
      return;
    }
  if (result->backed_up->len > 0)
    {
      printf (g_dngettext (GETTEXT_PACKAGE, "Backed up %u session, written and verified:\n",
                           "Backed up %u sessions, written and verified:\n",
                           result->backed_up->len),
              result->backed_up->len);
      for (guint i = 0; i < result->paths->len; i++)
        printf ("  %.8s  %s\n", (const char *)g_ptr_array_index (result->backed_up, i),
                (const char *)g_ptr_array_index (result->paths, i));
    }
  if (result->replaced->len > 0)
    printf (g_dngettext (GETTEXT_PACKAGE, "%u older backup replaced.\n",
                         "%u older backups replaced.\n", result->replaced->len),
            result->replaced->len);
  if (result->failed->len > 0)
    {
      printf (g_dngettext (GETTEXT_PACKAGE, "%u session failed; its previous backup was kept:\n",
                           "%u sessions failed; their previous backups were kept:\n",
                           result->failed->len),
              result->failed->len);
      for (guint i = 0; i < result->failed->len; i++)
        {
          const LoomKeeperFailure *failure = g_ptr_array_index (result->failed, i);

          printf ("  %.8s  %s: %s\n", failure->session_id,
                  failure->title != NULL ? failure->title : "", failure->error->message);
        }
    }
}

/* One line on a terminal, rewritten at each step. */
static void
draw_progress (const LoomKeeperProgress *progress,
               gpointer                  user_data)
{
  const char *step;

  if (g_strcmp0 (progress->step, "verify") == 0)
    step = _ ("verifying");
  else if (g_strcmp0 (progress->step, "replace") == 0)
    step = _ ("replacing the older backup");
  else
    step = _ ("backing up");
  fprintf (stderr, "\r\033[K[%u/%u] %s: %s", progress->index + 1, progress->total, step,
           progress->title != NULL ? progress->title : progress->session_id);
  fflush (stderr);
}

int
loom_cli_backup (LoomCli *cli,
                 int      argc,
                 char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (LoomKeeperResult) result = NULL;
  g_autoptr (LoomBackupKey) key = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *to = NULL;
  g_autofree char   *quiet = NULL;
  gboolean           encrypt = FALSE, json = FALSE, show_progress;
  guint64            minutes = DEFAULT_QUIET_MINUTES;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = {
    { "to", 't', 0, G_OPTION_ARG_FILENAME, &to,
      N_ ("Keep the backups in this existing folder (required)"), N_ ("DIR") },
    { "encrypt", 'e', 0, G_OPTION_ARG_NONE, &encrypt,
      N_ ("Encrypt each backup with the backup key in the login keyring (created when there is "
          "none)"),
      NULL },
    { "quiet-minutes", 'q', 0, G_OPTION_ARG_STRING, &quiet,
      N_ ("Back up only sessions quiet for this many minutes (default 10)"), N_ ("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL },
    { NULL }
  };

  g_option_context_set_summary (
    context, _ ("Back up every session that changed since its last backup and has been quiet "
                "since, into DIR: its full package, verified, then its previous backup in DIR "
                "removed. A session that fails keeps its previous backup."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc > 1)
    return loom_cli_usage_error (context, _ ("unexpected argument “%s”"), argv[1]);
  /* No default folder: a backup written where the person did not choose is a copy of their
   * secrets they do not know about. */
  if (to == NULL || *to == '\0')
    return loom_cli_usage_error (context, _ ("--to DIR is required"));
  if (quiet != NULL &&
      !g_ascii_string_to_unsigned (quiet, 10, 0, MAX_QUIET_MINUTES, &minutes, NULL))
    return loom_cli_usage_error (context,
                                 _ ("--quiet-minutes needs a number of minutes from 0 to %u, "
                                    "not “%s”"),
                                 MAX_QUIET_MINUTES, quiet);

  /* The folder before the key: a mistyped folder must not create a key in the keyring. */
  if (!g_file_test (to, G_FILE_TEST_IS_DIR) || g_file_test (to, G_FILE_TEST_IS_SYMLINK))
    {
      g_set_error (&error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   _ ("“%s” is not a folder (a symbolic link is not taken)"), to);
      return loom_cli_fail (error);
    }
  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;

  /* The key before the first backup: a keyring that fails stops here, before anything is
   * written, and never falls back to a backup in the clear. */
  if (encrypt)
    {
      gboolean created = FALSE;

      if (!(key = loom_backup_key_load_or_create (&created, NULL, &error)))
        return loom_cli_fail (error);
      if (created)
        loom_cli_tell_new_backup_key (key);
    }

  show_progress = !json && isatty (STDERR_FILENO);
  result = loom_backup_keep_up (store, to, key, (gint64)minutes * 60 * 1000, loom_time_now_ms (),
                                show_progress ? draw_progress : NULL, NULL, NULL, &error);
  if (show_progress)
    fputs ("\r\033[K", stderr);
  if (result == NULL)
    return loom_cli_fail (error);

  if (json)
    {
      g_autoptr (JsonNode) node = result_to_json (result);
      loom_cli_print_json (node);
    }
  else
    print_summary (result);
  return result->failed->len == 0 ? LOOM_EXIT_OK : LOOM_EXIT_FAILED;
}
