/* loom-cli-export.c — `loom sessions export ID… --to DIR`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "loom-backup.h"
#include "loom-cli.h"
#include "loom-export.h"

static void
add_package (JsonBuilder            *builder,
             const LoomExportResult *result)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "session_id");
  json_builder_add_string_value (builder, result->session_id);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, result->path);
  json_builder_set_member_name (builder, "files");
  json_builder_add_int_value (builder, result->n_files);
  json_builder_set_member_name (builder, "bytes");
  json_builder_add_int_value (builder, (gint64)result->n_bytes);
  json_builder_set_member_name (builder, "artifacts");
  json_builder_add_int_value (builder, result->n_artifacts);
  json_builder_set_member_name (builder, "artifacts_missing");
  json_builder_add_int_value (builder, result->n_artifacts_missing);
  json_builder_set_member_name (builder, "redactions");
  json_builder_add_int_value (builder, result->n_redactions);
  json_builder_set_member_name (builder, "subagents");
  json_builder_add_int_value (builder, result->n_subagents);
  json_builder_end_object (builder);
}

static void
add_failure (JsonBuilder  *builder,
             const char   *session_id,
             const GError *error)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "session_id");
  json_builder_add_string_value (builder, session_id);
  json_builder_set_member_name (builder, "error");
  json_builder_add_string_value (builder, error->message);
  json_builder_end_object (builder);
}

/* One package per session, as many at a time as there are processors; told in the order
 * given. */
static void
export_plain (LoomStore               *store,
              const char *const       *ids,
              const char              *to,
              const LoomExportOptions *options,
              gboolean                 json,
              JsonBuilder             *packages,
              JsonBuilder             *failed,
              guint                   *n_failed)
{
  LoomExportResult **results = NULL;
  GError           **errors = NULL;
  guint              n_ids = g_strv_length ((char **)ids);

  loom_export_sessions (store, ids, to, options, 0, &results, &errors, NULL);
  for (guint i = 0; i < n_ids; i++)
    {
      const LoomExportResult *result = results[i];

      if (result == NULL)
        {
          (*n_failed)++;
          add_failure (failed, ids[i], errors[i]);
          if (!json)
            loom_cli_fail (errors[i]);
          continue;
        }
      add_package (packages, result);
      if (!json)
        printf (_ ("%.8s  %s  (%u files, %" G_GUINT64_FORMAT " bytes)\n"), result->session_id,
                result->path, result->n_files, result->n_bytes);
    }
  loom_export_results_free (results, errors, n_ids);
}

/* Says once, on stderr, that a backup key was created and what its recovery key is. */
void
loom_cli_tell_new_backup_key (const LoomBackupKey *key)
{
  char *recovery = loom_backup_key_dup_recovery (key);

  fprintf (stderr,
           _ ("A backup key was created and stored in your login keyring (id %s).\n"
              "Its recovery key restores your backups on another machine. Write it down and keep "
              "it somewhere safe; `loom backup-key recovery` shows it again:\n\n    %s\n\n"),
           loom_backup_key_get_id (key), recovery);
  loom_backup_key_free_text (recovery);
}

/* The encrypted form: each session's whole package as one .loombackup file, one at a time
 * (the key in hand first: a keyring that fails leaves nothing written). */
static void
export_encrypted (LoomStore         *store,
                  const char *const *ids,
                  const char        *to,
                  gboolean           json,
                  JsonBuilder       *packages,
                  JsonBuilder       *failed,
                  guint             *n_failed)
{
  LoomBackupOptions options = LOOM_BACKUP_OPTIONS_INIT;
  g_autoptr (LoomBackupKey) key = NULL;
  g_autoptr (GError) error = NULL;
  gboolean created = FALSE;

  if (!(key = loom_backup_key_load_or_create (&created, NULL, &error)))
    {
      for (guint i = 0; ids[i] != NULL; i++, (*n_failed)++)
        add_failure (failed, ids[i], error);
      if (!json)
        loom_cli_fail (error);
      return;
    }
  if (created)
    loom_cli_tell_new_backup_key (key);

  options.key = key;
  for (guint i = 0; ids[i] != NULL; i++)
    {
      g_autoptr (LoomBackupResult) result = NULL;
      LoomExportResult exported = { 0 };

      if (!loom_backup_session (store, ids[i], to, &options, &result, NULL, &error))
        {
          (*n_failed)++;
          add_failure (failed, ids[i], error);
          if (!json)
            loom_cli_fail (error);
          g_clear_error (&error);
          continue;
        }
      exported.session_id = result->session_id;
      exported.path = result->path;
      exported.n_files = result->n_files;
      exported.n_bytes = result->n_bytes;
      exported.n_artifacts = result->n_artifacts;
      exported.n_subagents = result->n_subagents;
      add_package (packages, &exported);
      if (!json)
        printf (_ ("%.8s  %s  (%u files encrypted with key %s)\n"), result->session_id,
                result->path, result->n_files, result->key_id);
    }
}

int
loom_cli_sessions_export (LoomCli *cli,
                          int      argc,
                          char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("ID…"));
  g_autoptr (JsonBuilder) packages = json_builder_new ();
  g_autoptr (JsonBuilder) failed = json_builder_new ();
  g_autofree char  *to = NULL;
  g_autofree char  *detail = NULL;
  g_autofree char  *mode = NULL;
  g_autofree char  *budget = NULL;
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  gboolean           json = FALSE;
  gboolean           encrypt = FALSE;
  guint              n_failed = 0;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = {
    { "to", 't', 0, G_OPTION_ARG_FILENAME, &to,
      N_ ("Write the packages into this existing folder (required)"), N_ ("DIR") },
    { "detail", 'd', 0, G_OPTION_ARG_STRING, &detail,
      N_ ("How much of the timeline: messages, tools or full (default)"), N_ ("LEVEL") },
    { "mode", 'm', 0, G_OPTION_ARG_STRING, &mode,
      N_ ("The package's mode: full (default), redacted (secrets replaced) or compact (a "
          "redacted text for a language model, within a token budget)"),
      N_ ("MODE") },
    { "budget", 'b', 0, G_OPTION_ARG_STRING, &budget,
      N_ ("With --mode compact: the most tokens of its text (default 32000)"), N_ ("TOKENS") },
    { "encrypt", 'e', 0, G_OPTION_ARG_NONE, &encrypt,
      N_ ("Write each whole package as one encrypted file, <session id>.loombackup, with the "
          "backup key in the login keyring (created on first use)"),
      NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL },
    { NULL }
  };

  g_option_context_set_summary (
    context, _ ("Write each session as a package: a folder named after its "
                "title, holding conversation.md, conversation.html (the same "
                "as a page for a browser, self-contained), metadata.json, the files "
                "the session touched, its sub-agents' packages and a "
                "manifest.json that hashes every file. A package appears "
                "whole or not at all, and never replaces anything."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return loom_cli_usage_error (context, _ ("give at least one session id"));
  /* There is no default destination: a history written somewhere the person did not choose
   * is a copy of their secrets they do not know about. */
  if (to == NULL || *to == '\0')
    return loom_cli_usage_error (context, _ ("--to DIR is required"));
  if (detail != NULL && !loom_export_detail_from_string (detail, &options.detail))
    return loom_cli_usage_error (context, _ ("unknown detail level “%s”"), detail);
  if (mode != NULL && !loom_export_mode_from_string (mode, &options.mode))
    return loom_cli_usage_error (context, _ ("unknown mode “%s”"), mode);
  if (budget != NULL)
    {
      guint64 tokens = 0;

      if (!g_ascii_string_to_unsigned (budget, 10, 1, G_MAXUINT, &tokens, NULL))
        return loom_cli_usage_error (context,
                                     _ ("--budget needs a positive number of tokens, "
                                        "not “%s”"),
                                     budget);
      /* A budget is the compact text's alone: silently ignoring it would mislead. */
      if (options.mode != LOOM_EXPORT_MODE_COMPACT)
        return loom_cli_usage_error (context, _ ("--budget applies to --mode compact only"));
      options.budget = (guint)tokens;
    }

  /* A backup is whole: a part of a session encrypted would be restored as if it were all. */
  if (encrypt &&
      (options.detail != LOOM_EXPORT_DETAIL_FULL || options.mode != LOOM_EXPORT_MODE_FULL))
    return loom_cli_usage_error (context,
                                 _ ("--encrypt writes the whole session: leave --detail and --mode "
                                    "at full"));

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;

  for (int i = 1; i < argc; i++)
    g_ptr_array_add (ids, argv[i]);
  g_ptr_array_add (ids, NULL);
  json_builder_begin_array (packages);
  json_builder_begin_array (failed);
  if (encrypt)
    export_encrypted (store, (const char *const *)ids->pdata, to, json, packages, failed,
                      &n_failed);
  else
    export_plain (store, (const char *const *)ids->pdata, to, &options, json, packages, failed,
                  &n_failed);
  json_builder_end_array (packages);
  json_builder_end_array (failed);

  if (json)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "packages");
      json_builder_add_value (builder, json_builder_get_root (packages));
      json_builder_set_member_name (builder, "failed");
      json_builder_add_value (builder, json_builder_get_root (failed));
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      loom_cli_print_json (root);
    }
  return n_failed == 0 ? LOOM_EXIT_OK : LOOM_EXIT_FAILED;
}
