/* loom-cli-sweep.c — `loom sweep --older-than DAYS --to DIR [--encrypt] [--dry-run] [--json]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "loom-cli.h"
#include "loom-error.h"
#include "loom-sweep.h"
#include "loom-time.h"

/* A century: past it, a number of days is a typing mistake, and the cutoff would overflow
 * nothing but mean nothing either. */
#define MAX_DAYS 36500

static char *
format_local_time (gint64 ms)
{
  g_autoptr (GDateTime) utc = NULL;
  g_autoptr (GDateTime) local = NULL;

  if (ms == 0 || !(utc = g_date_time_new_from_unix_utc (ms / 1000)))
    return g_strdup ("-");
  local = g_date_time_to_local (utc);
  return g_date_time_format (local, "%Y-%m-%d %H:%M");
}

/* The destination is checked before anything is read or written: it must be a folder that
 * exists, and not a link, which could be turned to somewhere else between the check and the
 * writes. */
static gboolean
check_destination (const char *to,
                   GError    **error)
{
  GStatBuf st;

  if (g_lstat (to, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, _ ("Cannot use the folder “%s”: %s"),
                   to, g_strerror (saved));
      return FALSE;
    }
  if (S_ISLNK (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   _ ("“%s” is a symbolic link; give the folder it points to"), to);
      return FALSE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT, _ ("“%s” is not a folder"), to);
      return FALSE;
    }
  return TRUE;
}

static void
add_string_or_null (JsonBuilder *builder,
                    const char  *name,
                    const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_strings (JsonBuilder *builder,
             const char  *name,
             GPtrArray   *strings)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; strings != NULL && i < strings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (strings, i));
  json_builder_end_array (builder);
}

static JsonNode *
sweep_to_json (GPtrArray             *eligible,
               const LoomSweepResult *result,
               gboolean               dry_run)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "eligible");
  json_builder_begin_array (builder);
  for (guint i = 0; i < eligible->len; i++)
    {
      const LoomSweepCandidate *candidate = g_ptr_array_index (eligible, i);
      g_autofree char          *last_active = loom_time_to_iso (candidate->last_active);

      json_builder_begin_object (builder);
      add_string_or_null (builder, "id", candidate->session_id);
      add_string_or_null (builder, "title", candidate->title);
      add_string_or_null (builder, "last_active", last_active);
      json_builder_set_member_name (builder, "message_count");
      json_builder_add_int_value (builder, (gint64)candidate->message_count);
      add_string_or_null (builder, "model", candidate->model);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  add_strings (builder, "archived", result != NULL ? result->archived : NULL);
  add_strings (builder, "packages", result != NULL ? result->packages : NULL);

  json_builder_set_member_name (builder, "failed");
  json_builder_begin_array (builder);
  for (guint i = 0; result != NULL && i < result->failed->len; i++)
    {
      const LoomSweepFailure *failure = g_ptr_array_index (result->failed, i);

      json_builder_begin_object (builder);
      add_string_or_null (builder, "id", failure->session_id);
      add_string_or_null (builder, "error", failure->error->message);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "dry_run");
  json_builder_add_boolean_value (builder, dry_run);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static void
print_eligible (GPtrArray *eligible,
                guint      days)
{
  for (guint i = 0; i < eligible->len; i++)
    {
      const LoomSweepCandidate *candidate = g_ptr_array_index (eligible, i);
      g_autofree char          *last_active = format_local_time (candidate->last_active);
      g_autofree char          *n_messages = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                              candidate->message_count);

      printf ("%.8s  %-16s  %6s  %-24s  %s\n", candidate->session_id, last_active, n_messages,
              candidate->model != NULL ? candidate->model : "-", candidate->title);
    }
  printf (g_dngettext (GETTEXT_PACKAGE, "%u session older than %u days would be archived.\n",
                       "%u sessions older than %u days would be archived.\n", eligible->len),
          eligible->len, days);
}

static void
print_summary (const LoomSweepResult *result)
{
  printf (g_dngettext (GETTEXT_PACKAGE, "Archived %u session:\n", "Archived %u sessions:\n",
                       result->archived->len),
          result->archived->len);
  for (guint i = 0; i < result->archived->len; i++)
    printf ("  %.8s  %s\n", (const char *)g_ptr_array_index (result->archived, i),
            (const char *)g_ptr_array_index (result->titles, i));

  if (result->packages->len > 0)
    {
      printf (_ ("Backups written and verified:\n"));
      for (guint i = 0; i < result->packages->len; i++)
        printf ("  %s\n", (const char *)g_ptr_array_index (result->packages, i));
    }
  printf (g_dngettext (GETTEXT_PACKAGE, "%u artifact backed up.\n", "%u artifacts backed up.\n",
                       result->n_artifacts),
          result->n_artifacts);

  if (result->failed->len > 0)
    {
      printf (g_dngettext (GETTEXT_PACKAGE, "%u session failed and was left unarchived:\n",
                           "%u sessions failed and were left unarchived:\n", result->failed->len),
              result->failed->len);
      for (guint i = 0; i < result->failed->len; i++)
        {
          const LoomSweepFailure *failure = g_ptr_array_index (result->failed, i);

          printf ("  %.8s  %s: %s\n", failure->session_id,
                  failure->title != NULL ? failure->title : "", failure->error->message);
        }
    }
}

/* What the terminal's line shows, so that it is drawn again only when that changes: the
 * package's own steps come many times over for each sweep step. */
typedef struct
{
  guint       index;
  const char *step;
} ProgressLine;

/* One line on a terminal, rewritten at each step. */
static void
draw_progress (const LoomSweepProgress *progress,
               gpointer                 user_data)
{
  ProgressLine *line = user_data;
  const char   *step;

  if (g_strcmp0 (progress->step, "verify") == 0)
    step = _ ("verifying");
  else if (g_strcmp0 (progress->step, "archive") == 0)
    step = _ ("archiving");
  else
    step = _ ("backing up");
  if (line->step == step && line->index == progress->index)
    return;
  line->step = step;
  line->index = progress->index;
  fprintf (stderr, "\r\033[K[%u/%u] %s: %s", progress->index + 1, progress->total, step,
           progress->title != NULL ? progress->title : progress->session_id);
  fflush (stderr);
}

/* The key, created when the keyring has none; then its recovery key is shown, this once. */
static LoomBackupKey *
get_key (GError **error)
{
  g_autoptr (LoomBackupKey) key = NULL;
  gboolean created = FALSE;
  char    *recovery;

  if (!(key = loom_backup_key_load_or_create (&created, NULL, error)))
    return NULL;
  if (created)
    {
      recovery = loom_backup_key_dup_recovery (key);
      g_printerr (_ ("loom: a new backup key (id %s) was created and stored in your login "
                     "keyring.\n"
                     "Write down its recovery key now and keep it somewhere safe: it is shown "
                     "this once, and with it alone a new machine restores every backup.\n\n"
                     "    %s\n\n"),
                  loom_backup_key_get_id (key), recovery);
      loom_backup_key_free_text (recovery);
    }
  return g_steal_pointer (&key);
}

int
loom_cli_sweep (LoomCli *cli,
                int      argc,
                char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GPtrArray) eligible = NULL;
  g_autoptr (GPtrArray) ids = NULL;
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (LoomBackupKey) key = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *older_than = NULL;
  g_autofree char   *to = NULL;
  gboolean           encrypt = FALSE, dry_run = FALSE, json = FALSE;
  gboolean           show_progress;
  ProgressLine       line = { G_MAXUINT, NULL };
  guint64            days = 0;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = {
    { "older-than", 'o', 0, G_OPTION_ARG_STRING, &older_than,
      N_ ("Sweep the sessions last active more than this many days ago (required)"), N_ ("DAYS") },
    { "to", 't', 0, G_OPTION_ARG_FILENAME, &to,
      N_ ("Write the backups into this existing folder (required)"), N_ ("DIR") },
    { "encrypt", 'e', 0, G_OPTION_ARG_NONE, &encrypt,
      N_ ("Encrypt each backup with the backup key in the login keyring (created when there is "
          "none)"),
      NULL },
    { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &dry_run,
      N_ ("List the sessions that would be swept; change and write nothing"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL },
    { NULL }
  };

  g_option_context_set_summary (
    context, _ ("Move old sessions into the archive, each only after its backup (a full "
                "package) has been written into DIR and verified. A session whose backup "
                "fails is left as it was, and the sweep goes on with the next."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc > 1)
    return loom_cli_usage_error (context, _ ("unexpected argument “%s”"), argv[1]);
  /* No default for either: the preference the app keeps for the threshold is not the CLI's
   * to read, and a backup written where the person did not choose is a copy of their
   * secrets they do not know about. */
  if (older_than == NULL)
    return loom_cli_usage_error (context, _ ("--older-than DAYS is required"));
  if (!g_ascii_string_to_unsigned (older_than, 10, 0, MAX_DAYS, &days, NULL))
    return loom_cli_usage_error (context,
                                 _ ("--older-than needs a number of days from 0 to %u, "
                                    "not “%s”"),
                                 MAX_DAYS, older_than);
  if (to == NULL || *to == '\0')
    return loom_cli_usage_error (context, _ ("--to DIR is required"));
  if (!check_destination (to, &error))
    return loom_cli_fail (error);

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(eligible = loom_sweep_find_eligible (store, (guint)days, loom_time_now_ms (), &error)))
    return loom_cli_fail (error);

  if (eligible->len == 0 || dry_run)
    {
      if (json)
        {
          g_autoptr (JsonNode) node = sweep_to_json (eligible, NULL, dry_run);
          loom_cli_print_json (node);
        }
      else if (eligible->len == 0)
        printf (_ ("No sessions older than %u days. Nothing to archive.\n"), (guint)days);
      else
        print_eligible (eligible, (guint)days);
      return LOOM_EXIT_OK;
    }

  /* The key before the first backup: a keyring that fails stops the sweep before anything is
   * written, and never falls back to a backup in the clear. */
  if (encrypt && !(key = get_key (&error)))
    return loom_cli_fail (error);

  ids = g_ptr_array_new ();
  for (guint i = 0; i < eligible->len; i++)
    g_ptr_array_add (ids, ((LoomSweepCandidate *)g_ptr_array_index (eligible, i))->session_id);
  g_ptr_array_add (ids, NULL);

  show_progress = isatty (STDERR_FILENO);
  result = loom_sweep_run (store, (const char *const *)ids->pdata, to, key,
                           show_progress ? draw_progress : NULL, &line, NULL, &error);
  if (show_progress)
    fputs ("\r\033[K", stderr);
  if (result == NULL)
    return loom_cli_fail (error);

  if (json)
    {
      g_autoptr (JsonNode) node = sweep_to_json (eligible, result, FALSE);
      loom_cli_print_json (node);
    }
  else
    print_summary (result);
  return result->failed->len == 0 ? LOOM_EXIT_OK : LOOM_EXIT_FAILED;
}
