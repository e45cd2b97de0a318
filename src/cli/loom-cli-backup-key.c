/* loom-cli-backup-key.c — `loom backup-key status|create|recovery`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recovery key goes to standard output alone, the advice around it to standard error: the
 * person sees both in their terminal, and `loom backup-key recovery > FILE` writes a file that
 * holds the recovery key and nothing else. It is printed with printf, not through a JSON
 * document, so that no copy of it is left in memory that nobody wipes.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "loom-backup-key.h"
#include "loom-cli.h"
#include "loom-error.h"

/* Parses a subcommand that takes --json and no argument. */
static gboolean
parse_json_only (GOptionContext *context,
                 const char     *summary,
                 const char     *name,
                 int            *argc,
                 char         ***argv,
                 gboolean       *json,
                 int            *status)
{
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, json, N_ ("Print JSON"), NULL }, { NULL }
  };

  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, argc, argv, status))
    return FALSE;
  if (*argc != 1)
    {
      *status = loom_cli_usage_error (context, _ ("backup-key %s takes no arguments"), name);
      return FALSE;
    }
  return TRUE;
}

/* Prints the recovery key of @key; @created says whether the key was made just now. */
static void
print_recovery (const LoomBackupKey *key,
                gboolean             json,
                gboolean             created)
{
  char *recovery = loom_backup_key_dup_recovery (key);

  /* A key id is hex and a recovery key base32 with hyphens: neither needs escaping in JSON. */
  if (json)
    printf ("{\n  \"key_id\" : \"%s\",\n  \"recovery_key\" : \"%s\",\n  \"created\" : %s\n}\n",
            loom_backup_key_get_id (key), recovery, created ? "true" : "false");
  else
    {
      if (created)
        g_printerr (_ ("Created backup key %s in the login keyring. Its recovery key:\n\n"),
                    loom_backup_key_get_id (key));
      else
        g_printerr (_ ("The recovery key of backup key %s:\n\n"), loom_backup_key_get_id (key));
      printf ("%s\n", recovery);
      fflush (stdout);
      g_printerr (_ ("\nWrite it down and keep it somewhere safe, away from this computer: with "
                     "it alone, a new machine restores every encrypted backup.\n"));
      if (created)
        g_printerr (_ ("“loom backup-key recovery” shows it again.\n"));
    }

  loom_backup_key_free_text (recovery);
}

static int
backup_key_status (LoomCli *cli,
                   int      argc,
                   char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *key_id = NULL;
  gboolean         json = FALSE;
  int              status;

  if (!parse_json_only (context,
                        _ ("Say whether the login keyring holds a backup key, and its id."),
                        "status", &argc, &argv, &json, &status))
    return status;

  key_id = loom_backup_key_find_id (NULL, &error);
  if (error != NULL)
    return loom_cli_fail (error);

  if (json)
    {
      if (key_id != NULL)
        printf ("{\n  \"exists\" : true,\n  \"key_id\" : \"%s\"\n}\n", key_id);
      else
        printf ("{\n  \"exists\" : false,\n  \"key_id\" : null\n}\n");
    }
  else if (key_id != NULL)
    printf (_ ("Backup key %s is in the login keyring.\n"), key_id);
  else
    printf (_ ("No backup key in the login keyring. Create one with “loom backup-key create”.\n"));

  return LOOM_EXIT_OK;
}

static int
backup_key_create (LoomCli *cli,
                   int      argc,
                   char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (LoomBackupKey) key = NULL;
  g_autoptr (GError) error = NULL;
  gboolean json = FALSE;
  int      status;

  if (!parse_json_only (context,
                        _ ("Create the backup key that encrypts backups, keep it in the login "
                           "keyring, and print its recovery key once."),
                        "create", &argc, &argv, &json, &status))
    return status;

  key = loom_backup_key_create (NULL, &error);
  if (key == NULL)
    {
      loom_cli_fail (error);
      if (g_error_matches (error, LOOM_ERROR, LOOM_ERROR_EXISTS))
        g_printerr (_ ("“loom backup-key recovery” shows its recovery key.\n"));
      return LOOM_EXIT_FAILED;
    }

  print_recovery (key, json, TRUE);
  return LOOM_EXIT_OK;
}

static int
backup_key_recovery (LoomCli *cli,
                     int      argc,
                     char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (LoomBackupKey) key = NULL;
  g_autoptr (GError) error = NULL;
  gboolean json = FALSE;
  int      status;

  if (!parse_json_only (context,
                        _ ("Print the recovery key of the backup key in the login keyring."),
                        "recovery", &argc, &argv, &json, &status))
    return status;

  key = loom_backup_key_load (NULL, NULL, &error);
  if (key == NULL)
    return loom_cli_fail (error);

  print_recovery (key, json, FALSE);
  return LOOM_EXIT_OK;
}

static const LoomCliCommand backup_key_commands[] = {
  { "status", backup_key_status, N_ ("Say whether a backup key exists, and its id") },
  { "create", backup_key_create, N_ ("Create the backup key and show its recovery key") },
  { "recovery", backup_key_recovery, N_ ("Show the recovery key of the backup key") },
  { NULL }
};

int
loom_cli_backup_key (LoomCli *cli,
                     int      argc,
                     char   **argv)
{
  return loom_cli_dispatch (cli, "backup-key", backup_key_commands, argc, argv);
}
