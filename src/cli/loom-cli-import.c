/* loom-cli-import.c — `loom import`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "loom-cli.h"
#include "loom-import.h"
#include "loom-package-import.h"

#define BAR_WIDTH 30

typedef struct
{
  gint64 last_draw;
  guint  percent;
} Progress;

/* A bar on stderr when it is a terminal; scripts reading a pipe see only the summary. */
static void
draw_progress (guint64     done,
               guint64     total,
               const char *path,
               gpointer    user_data)
{
  Progress *progress = user_data;
  guint     percent = total > 0 ? (guint)(done * 100 / total) : 100;
  gint64    now = g_get_monotonic_time ();
  char      bar[BAR_WIDTH + 1];
  guint     filled = percent * BAR_WIDTH / 100;

  if (percent == progress->percent && now - progress->last_draw < 100000)
    return;
  progress->percent = percent;
  progress->last_draw = now;

  for (guint i = 0; i < BAR_WIDTH; i++)
    bar[i] = i < filled ? '#' : '-';
  bar[BAR_WIDTH] = '\0';
  fprintf (stderr, "\r[%s] %3u%%  %.1f / %.1f MB ", bar, percent, done / 1e6, total / 1e6);
  fflush (stderr);
}

/* What became of one package named on the command line. */
typedef struct
{
  char                    *path;
  LoomPackageImportResult *result; /* NULL when refused */
  char                    *error;
} PackageOutcome;

static void
package_outcome_free (PackageOutcome *outcome)
{
  g_free (outcome->path);
  loom_package_import_result_free (outcome->result);
  g_free (outcome->error);
  g_free (outcome);
}

static const char *
package_status (const PackageOutcome *outcome)
{
  if (outcome->result == NULL)
    return "refused";
  return outcome->result->already_stored ? "skipped" : "imported";
}

static guint
count_packages (GPtrArray  *packages,
                const char *status)
{
  guint n = 0;

  for (guint i = 0; i < packages->len; i++)
    n += g_str_equal (package_status (packages->pdata[i]), status);
  return n;
}

/* Imports each package of @packages (PackageOutcome, path set), keeping what became of it. */
static void
import_packages (LoomStore *store,
                 GPtrArray *packages)
{
  for (guint i = 0; i < packages->len; i++)
    {
      PackageOutcome *outcome = packages->pdata[i];
      g_autoptr (GError) error = NULL;

      if (!loom_import_package (store, outcome->path, &outcome->result, NULL, &error))
        outcome->error = g_strdup (error->message);
    }
}

static void
add_packages_json (JsonBuilder *builder,
                   GPtrArray   *packages)
{
  json_builder_set_member_name (builder, "packages_imported");
  json_builder_add_int_value (builder, count_packages (packages, "imported"));
  json_builder_set_member_name (builder, "packages_skipped");
  json_builder_add_int_value (builder, count_packages (packages, "skipped"));
  json_builder_set_member_name (builder, "packages_refused");
  json_builder_add_int_value (builder, count_packages (packages, "refused"));
  json_builder_set_member_name (builder, "packages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < packages->len; i++)
    {
      PackageOutcome *outcome = packages->pdata[i];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, outcome->path);
      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, package_status (outcome));
      if (outcome->result != NULL)
        {
          json_builder_set_member_name (builder, "session_id");
          json_builder_add_string_value (builder, outcome->result->session_id);
          json_builder_set_member_name (builder, "messages");
          json_builder_add_int_value (builder, (gint64)outcome->result->n_messages);
          json_builder_set_member_name (builder, "events");
          json_builder_add_int_value (builder, (gint64)outcome->result->n_events);
          json_builder_set_member_name (builder, "subagents");
          json_builder_add_int_value (builder, outcome->result->n_subagents);
        }
      else
        {
          json_builder_set_member_name (builder, "error");
          json_builder_add_string_value (builder, outcome->error);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
print_packages (GPtrArray *packages)
{
  for (guint i = 0; i < packages->len; i++)
    {
      PackageOutcome                *outcome = packages->pdata[i];
      const LoomPackageImportResult *r = outcome->result;

      if (r == NULL)
        fprintf (stderr, _ ("Refused package “%s”: %s\n"), outcome->path, outcome->error);
      else if (r->already_stored)
        printf (_ ("Package “%s”: session %s is already in the store; nothing changed\n"),
                outcome->path, r->session_id);
      else
        {
          g_autofree char *messages = g_strdup_printf ("%" G_GUINT64_FORMAT, r->n_messages);
          g_autofree char *events = g_strdup_printf ("%" G_GUINT64_FORMAT, r->n_events);

          printf (_ ("Imported package “%s”: session %s, %s messages, %s events\n"), outcome->path,
                  r->session_id, messages, events);
          if (r->n_subagents > 0)
            printf (g_dngettext (GETTEXT_PACKAGE, "  and %u sub-agent’s session\n",
                                 "  and %u sub-agents’ sessions\n", r->n_subagents),
                    r->n_subagents);
        }
    }
}

static JsonNode *
stats_to_json (const LoomImportStats *stats,
               GPtrArray             *packages)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

#define ADD_INT(name, value) \
  json_builder_set_member_name (builder, name); \
  json_builder_add_int_value (builder, (gint64)(value));
  json_builder_begin_object (builder);
  ADD_INT ("files", stats->files_seen)
  ADD_INT ("files_imported", stats->files_imported)
  ADD_INT ("files_unchanged", stats->files_unchanged)
  ADD_INT ("files_failed", stats->files_failed)
  ADD_INT ("sessions", stats->sessions_touched)
  ADD_INT ("sessions_new", stats->sessions_new)
  ADD_INT ("sessions_missing", stats->sessions_missing)
  ADD_INT ("messages", stats->messages)
  ADD_INT ("events", stats->events)
  ADD_INT ("records", stats->records)
  ADD_INT ("bytes", stats->bytes)
#undef ADD_INT
  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < stats->warnings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (stats->warnings, i));
  json_builder_end_array (builder);
  add_packages_json (builder, packages);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static void
print_summary (const LoomImportStats *stats)
{
  g_autofree char *messages = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->messages);
  g_autofree char *events = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->events);

  printf (_ ("Files:     %u (%u read, %u unchanged, %u failed)\n"), stats->files_seen,
          stats->files_imported, stats->files_unchanged, stats->files_failed);
  printf (_ ("Sessions:  %u (%u new)\n"), stats->sessions_touched, stats->sessions_new);
  /* gettext cannot see through G_GUINT64_FORMAT: the numbers are formatted apart. */
  printf (_ ("Messages:  %s\n"), messages);
  printf (_ ("Events:    %s\n"), events);
  if (stats->sessions_missing > 0)
    printf (_ ("Kept:      %u sessions whose agent file is gone\n"), stats->sessions_missing);
  printf (_ ("Warnings:  %u\n"), stats->warnings->len);
  for (guint i = 0; i < stats->warnings->len; i++)
    printf ("  %s\n", (const char *)g_ptr_array_index (stats->warnings, i));
}

/* The folders added in the app's preferences, when its settings schema is installed: `loom
 * import` without a path reads what the app would. */
static char **
extra_source_folders (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;
  g_autoptr (GSettings) settings = NULL;

  if (source == NULL || !(schema = g_settings_schema_source_lookup (source, APP_ID, TRUE)) ||
      !g_settings_schema_has_key (schema, "extra-source-folders"))
    return NULL;
  settings = g_settings_new_full (schema, NULL, NULL);
  return g_settings_get_strv (settings, "extra-source-folders");
}

int
loom_cli_import (LoomCli *cli,
                 int      argc,
                 char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("[PATH…]"));
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray)
    packages = g_ptr_array_new_with_free_func ((GDestroyNotify)package_outcome_free);
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autofree char   *source = NULL;
  gboolean           json = FALSE, quiet = FALSE;
  LoomImportOptions  options = { 0 };
  Progress           progress = { 0, G_MAXUINT };
  gboolean           show_progress;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = {
    { "source", 's', 0, G_OPTION_ARG_STRING, &source,
      N_ ("The agent that wrote the files: claude-code, codex or gemini (default: detect)"),
      N_ ("AGENT") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_ ("Print no progress"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print the summary as JSON"), NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
                                _ ("Import agent sessions into the store. Without PATH, the "
                                   "agents' own folders are read (~/.claude/projects, "
                                   "~/.codex/sessions, ~/.gemini/tmp, or CLAUDE_CONFIG_DIR and "
                                   "CODEX_HOME), and the extra folders chosen in the app’s "
                                   "preferences. A PATH may be a file or a folder. Only what is "
                                   "new since the last import is read; the agents' files are "
                                   "never changed. A PATH that is a package written by `loom "
                                   "sessions export` (a folder with a manifest.json) is "
                                   "verified and its session imported back, once."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;

  /* Packages apart: they are restored, not read as an agent's files. */
  for (int i = 1; i < argc; i++)
    {
      if (loom_package_looks_like_package (argv[i]))
        {
          PackageOutcome *outcome = g_new0 (PackageOutcome, 1);

          outcome->path = g_strdup (argv[i]);
          g_ptr_array_add (packages, outcome);
        }
      else
        g_ptr_array_add (paths, argv[i]);
    }
  g_ptr_array_add (paths, NULL);

  options.source = source;
  options.paths = paths->len > 1 ? (const char *const *)paths->pdata : NULL;

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;

  import_packages (store, packages);

  show_progress = !quiet && !json && isatty (STDERR_FILENO);
  /* Only packages were named: the agents' folders are not read as when no PATH is given. */
  if ((options.paths != NULL || packages->len == 0) &&
      !loom_import_run (store, &options, show_progress ? draw_progress : NULL, &progress, NULL,
                        stats, &error))
    {
      if (show_progress)
        fputc ('\n', stderr);
      return loom_cli_fail (error);
    }

  if (options.paths == NULL && packages->len == 0)
    {
      g_auto (GStrv) extra = extra_source_folders ();
      LoomImportOptions extra_options = { source, (const char *const *)extra };

      if (extra != NULL && extra[0] != NULL &&
          !loom_import_run (store, &extra_options, show_progress ? draw_progress : NULL, &progress,
                            NULL, stats, &error))
        {
          if (show_progress)
            fputc ('\n', stderr);
          return loom_cli_fail (error);
        }
    }
  if (show_progress)
    fputc ('\n', stderr);

  if (json)
    {
      g_autoptr (JsonNode) node = stats_to_json (stats, packages);
      loom_cli_print_json (node);
    }
  else
    {
      print_packages (packages);
      if (options.paths != NULL || packages->len == 0)
        print_summary (stats);
    }

  /* Warnings are normal with hostile input; a file that could not be read at all is not, nor
   * a package that does not verify. */
  return stats->files_failed > 0 || count_packages (packages, "refused") > 0 ? LOOM_EXIT_FAILED
                                                                             : LOOM_EXIT_OK;
}
