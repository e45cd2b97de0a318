/* loom-cli-sessions.c — `loom sessions …`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "loom-cli.h"
#include "loom-time.h"
#include "loom-timeline-item.h"

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

static void
print_session_line (LoomSession *session)
{
  const LoomSessionRecord *r = loom_session_get_record (session);
  g_autofree char         *updated = format_local_time (r->updated_at);
  g_autoptr (GString) flags = g_string_new (NULL);

  if (r->pinned)
    g_string_append (flags, _ ("  [pinned]"));
  if (r->archived)
    g_string_append (flags, _ ("  [archived]"));
  if (r->trashed_at != 0)
    g_string_append (flags, _ ("  [trash]"));
  if (r->folder_name != NULL)
    g_string_append_printf (flags, "  [%s]", r->folder_name);

  printf ("%.8s  %-16s  %-11s  %5" G_GINT64_FORMAT "  %s%s\n", r->uuid, updated, r->source,
          r->message_count, r->title, flags->str);
}

static int
sessions_list (LoomCli *cli,
               int      argc,
               char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *collection = NULL;
  g_autofree char *folder_name = NULL;
  g_autofree char *agent = NULL;
  g_autofree char *project = NULL;
  g_autofree char *sort = NULL;
  g_autoptr (LoomFolder) folder = NULL;
  LoomSessionQuery   query = LOOM_SESSION_QUERY_INIT;
  gboolean           all = FALSE, json = FALSE, reverse = FALSE;
  int                limit = 0, offset = 0;
  int                status;
  LoomStore         *store;
  const GOptionEntry entries[] = {
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all, N_ ("Include archived and trashed sessions"), NULL },
    { "collection", 'c', 0, G_OPTION_ARG_STRING, &collection,
      N_ ("Only this collection: all, recent, pinned, active, archived, trash"), N_ ("NAME") },
    { "folder", 'f', 0, G_OPTION_ARG_STRING, &folder_name, N_ ("Only sessions in this folder"),
      N_ ("FOLDER") },
    { "agent", 0, 0, G_OPTION_ARG_STRING, &agent,
      N_ ("Only sessions of this agent: claude-code, codex, gemini"), N_ ("AGENT") },
    { "project", 'p', 0, G_OPTION_ARG_STRING, &project, N_ ("Only sessions of this project"),
      N_ ("NAME") },
    { "sort", 's', 0, G_OPTION_ARG_STRING, &sort,
      N_ ("Sort by updated (default), created or title"), N_ ("KEY") },
    { "reverse", 'r', 0, G_OPTION_ARG_NONE, &reverse, N_ ("Reverse the order"), NULL },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, N_ ("Show at most N sessions"), N_ ("N") },
    { "offset", 0, 0, G_OPTION_ARG_INT, &offset, N_ ("Skip the first N sessions"), N_ ("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL },
    { NULL }
  };

  g_option_context_set_summary (context, _ ("List sessions, most recently active first."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc > 1)
    return loom_cli_usage_error (context, _ ("unexpected argument “%s”"), argv[1]);
  if (limit < 0 || offset < 0)
    return loom_cli_usage_error (context, _ ("--limit and --offset cannot be negative"));

  if (all)
    query.collection = LOOM_COLLECTION_EVERYTHING;
  if (collection != NULL && !loom_collection_from_string (collection, &query.collection))
    return loom_cli_usage_error (context, _ ("unknown collection “%s”"), collection);
  if (sort != NULL && !loom_sort_from_string (sort, &query.sort))
    return loom_cli_usage_error (context, _ ("unknown sort key “%s”"), sort);
  query.ascending = reverse;
  query.source = agent;
  query.project = project;
  query.limit = (guint)limit;
  query.offset = (guint)offset;

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;

  if (folder_name != NULL)
    {
      if (!(folder = loom_store_find_folder (store, folder_name, &error)))
        return loom_cli_fail (error);
      query.folder_id = loom_folder_get_id (folder);
    }

  if (!(sessions = loom_store_list_sessions (store, &query, &error)))
    return loom_cli_fail (error);

  if (json)
    {
      g_autoptr (JsonArray) array = json_array_new ();
      g_autoptr (JsonNode) node = json_node_new (JSON_NODE_ARRAY);

      for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
        {
          g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
          json_array_add_element (array, loom_session_to_json (session));
        }
      json_node_set_array (node, array);
      loom_cli_print_json (node);
      return LOOM_EXIT_OK;
    }

  if (g_list_model_get_n_items (sessions) == 0)
    {
      g_printerr (_ ("No sessions.\n"));
      return LOOM_EXIT_OK;
    }

  printf ("%-8s  %-16s  %-11s  %5s  %s\n", _ ("ID"), _ ("UPDATED"), _ ("AGENT"), _ ("MSGS"),
          _ ("TITLE"));
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      print_session_line (session);
    }
  return LOOM_EXIT_OK;
}

static void
print_field (const char *name,
             const char *value)
{
  if (value != NULL && *value != '\0')
    printf ("%-18s %s\n", name, value);
}

static void
print_time_field (const char *name,
                  gint64      ms)
{
  g_autofree char *text = ms ? format_local_time (ms) : NULL;

  print_field (name, text);
}

static void
print_session_details (LoomSession *session)
{
  const LoomSessionRecord *r = loom_session_get_record (session);
  g_autofree char         *counts = NULL;
  g_autofree char         *tokens = NULL;
  g_autofree char         *n_messages = NULL;
  g_autofree char         *n_events = NULL;

  print_field (_ ("Title"), r->title);
  print_field (_ ("ID"), r->uuid);
  print_field (_ ("Agent"), r->source);
  print_field (_ ("Agent version"), r->agent_version);
  print_field (_ ("Agent session"), r->source_session_id);
  print_field (_ ("Source file"), r->source_path);
  if (r->source_missing)
    print_field (_ ("Source status"), _ ("deleted by the agent; kept here"));
  print_field (_ ("Type"), r->session_type);
  print_field (_ ("Parent"), r->parent_uuid);
  print_field (_ ("Forked from"), r->fork_source_uuid);
  print_field (_ ("Project"), r->project_name);
  print_field (_ ("Working folder"), r->cwd);
  print_field (_ ("Git branch"), r->git_branch);
  print_field (_ ("Git commit"), r->git_commit);
  print_field (_ ("Model"), r->model);
  print_field (_ ("Agent mode"), r->agent_mode);
  print_time_field (_ ("Created"), r->created_at);
  print_time_field (_ ("Updated"), r->updated_at);
  print_time_field (_ ("Last opened"), r->last_opened_at);
  print_time_field (_ ("Archived"), r->archived_at);
  print_time_field (_ ("Trashed"), r->trashed_at);
  print_field (_ ("Folder"), r->folder_name);
  print_field (_ ("Pinned"), r->pinned ? _ ("yes") : NULL);
  print_field (_ ("Backup"), r->backup_path);
  print_time_field (_ ("Backed up"), r->backup_at);
  /* gettext cannot see through G_GINT64_FORMAT: the numbers are formatted apart. */
  n_messages = g_strdup_printf ("%" G_GINT64_FORMAT, r->message_count);
  n_events = g_strdup_printf ("%" G_GINT64_FORMAT, r->event_count);
  counts = g_strdup_printf (_ ("%s messages, %s events"), n_messages, n_events);
  print_field (_ ("Contents"), counts);
  print_field (_ ("Task"), r->task_objective);
  print_field (_ ("Task status"), r->task_status);
  print_field (_ ("Tools used"), g_strcmp0 (r->tools_used_json, "{}") ? r->tools_used_json : NULL);
  if (r->tokens_input || r->tokens_output || r->tokens_cache_read || r->tokens_cache_creation)
    {
      g_autofree char *in = g_strdup_printf ("%" G_GINT64_FORMAT, r->tokens_input);
      g_autofree char *out = g_strdup_printf ("%" G_GINT64_FORMAT, r->tokens_output);
      g_autofree char *read = g_strdup_printf ("%" G_GINT64_FORMAT, r->tokens_cache_read);
      g_autofree char *written = g_strdup_printf ("%" G_GINT64_FORMAT, r->tokens_cache_creation);

      tokens = g_strdup_printf (_ ("%s in, %s out, %s cache read, %s cache written"), in, out, read,
                                written);
      print_field (_ ("Tokens"), tokens);
    }
  if (r->tokens_reasoning >= 0)
    {
      g_autofree char *reasoning = g_strdup_printf ("%" G_GINT64_FORMAT, r->tokens_reasoning);
      g_autofree char *of_output = NULL;

      /* Translators: the part of a session's output tokens the model spent reasoning. */
      of_output = g_strdup_printf (_ ("%s of the output"), reasoning);
      print_field (_ ("Reasoning tokens"), of_output);
    }
}

/* Where an archive sweep put the session's latest backup; null when none did. Not part of
 * loom_session_to_json (): that is also a package's metadata.json, which has no business
 * naming where the person keeps their backups. */
static void
add_backup_json (JsonObject  *object,
                 LoomSession *session)
{
  const char      *path = loom_session_get_backup_path (session);
  g_autofree char *written_at = NULL;
  JsonObject      *backup;

  if (path == NULL)
    {
      json_object_set_null_member (object, "backup");
      return;
    }
  backup = json_object_new ();
  json_object_set_string_member (backup, "path", path);
  written_at = loom_time_to_iso (loom_session_get_backup_at (session));
  json_object_set_string_member (backup, "written_at", written_at);
  json_object_set_object_member (object, "backup", backup);
}

static int
sessions_show (LoomCli *cli,
               int      argc,
               char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("ID"));
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  gboolean           json = FALSE;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL }, { NULL }
  };

  g_option_context_set_summary (context, _ ("Show every detail of one session. ID may be our id, "
                                            "the agent's session id or a unique prefix."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return loom_cli_usage_error (context, _ ("give exactly one session id"));

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(session = loom_store_get_session (store, argv[1], &error)))
    return loom_cli_fail (error);

  if (json)
    {
      g_autoptr (JsonNode) node = loom_session_to_json (session);
      g_autoptr (GListModel) timeline = NULL;
      JsonArray *items = json_array_new ();

      if (!(timeline = loom_store_list_timeline (store, argv[1], 0, 0, &error)))
        {
          json_array_unref (items);
          return loom_cli_fail (error);
        }
      for (guint i = 0; i < g_list_model_get_n_items (timeline); i++)
        {
          g_autoptr (LoomTimelineItem) item = g_list_model_get_item (timeline, i);
          json_array_add_element (items, loom_timeline_item_to_json (item));
        }
      json_object_set_array_member (json_node_get_object (node), "timeline", items);
      add_backup_json (json_node_get_object (node), session);
      loom_cli_print_json (node);
    }
  else
    print_session_details (session);
  return LOOM_EXIT_OK;
}

/* The simple state changes share one shape: ID in, one store call, the new state out. */
typedef enum
{
  CHANGE_PIN,
  CHANGE_UNPIN,
  CHANGE_ARCHIVE,
  CHANGE_RESTORE,
  CHANGE_TRASH,
} Change;

static gboolean
apply_change (LoomStore  *store,
              Change      change,
              const char *id,
              GError    **error)
{
  g_autoptr (LoomSession) session = NULL;

  switch (change)
    {
    case CHANGE_PIN:
      return loom_store_set_pinned (store, id, TRUE, error);

    case CHANGE_UNPIN:
      return loom_store_set_pinned (store, id, FALSE, error);

    case CHANGE_ARCHIVE:
      return loom_store_set_archived (store, id, TRUE, error);

    case CHANGE_TRASH:
      return loom_store_set_trashed (store, id, TRUE, error);

    case CHANGE_RESTORE:
      /* Restore undoes the most recent removal: out of the trash first, else out of the
       * archive. */
      if (!(session = loom_store_get_session (store, id, error)))
        return FALSE;
      if (loom_session_get_trashed (session))
        return loom_store_set_trashed (store, id, FALSE, error);
      return loom_store_set_archived (store, id, FALSE, error);

    default:
      g_assert_not_reached ();
    }
}

static const char *
change_done_message (Change change)
{
  switch (change)
    {
    case CHANGE_PIN:
      return _ ("Pinned");
    case CHANGE_UNPIN:
      return _ ("Unpinned");
    case CHANGE_ARCHIVE:
      return _ ("Archived");
    case CHANGE_RESTORE:
      return _ ("Restored");
    case CHANGE_TRASH:
      return _ ("Moved to the trash");
    default:
      g_assert_not_reached ();
    }
}

/* Prints the session after a change: its JSON, or a line saying what happened. */
static int
report_session (LoomStore  *store,
                const char *id,
                gboolean    json,
                const char *done)
{
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  if (!(session = loom_store_get_session (store, id, &error)))
    return loom_cli_fail (error);

  if (json)
    {
      g_autoptr (JsonNode) node = loom_session_to_json (session);
      loom_cli_print_json (node);
    }
  else
    printf ("%s: %s (%.8s)\n", done, loom_session_get_title (session),
            loom_session_get_uuid (session));
  return LOOM_EXIT_OK;
}

static int
sessions_change (LoomCli    *cli,
                 int         argc,
                 char      **argv,
                 Change      change,
                 const char *summary)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("ID…"));
  gboolean           json = FALSE;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = { { "json", 0, 0, G_OPTION_ARG_NONE, &json,
                                     N_ ("Print the changed session as JSON"), NULL },
                                   { NULL } };

  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return loom_cli_usage_error (context, _ ("give at least one session id"));
  if (json && argc > 2)
    return loom_cli_usage_error (context, _ ("--json takes exactly one session id"));

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;

  status = LOOM_EXIT_OK;
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GError) error = NULL;

      if (!apply_change (store, change, argv[i], &error))
        status = loom_cli_fail (error);
      else if (report_session (store, argv[i], json, change_done_message (change)) != 0)
        status = LOOM_EXIT_FAILED;
    }
  return status;
}

static int
sessions_pin (LoomCli *cli,
              int      argc,
              char   **argv)
{
  return sessions_change (cli, argc, argv, CHANGE_PIN,
                          _ ("Pin sessions to the Pinned collection."));
}

static int
sessions_unpin (LoomCli *cli,
                int      argc,
                char   **argv)
{
  return sessions_change (cli, argc, argv, CHANGE_UNPIN, _ ("Unpin sessions."));
}

static int
sessions_archive (LoomCli *cli,
                  int      argc,
                  char   **argv)
{
  return sessions_change (cli, argc, argv, CHANGE_ARCHIVE,
                          _ ("Move sessions to the archive. They stay searchable."));
}

static int
sessions_restore (LoomCli *cli,
                  int      argc,
                  char   **argv)
{
  return sessions_change (cli, argc, argv, CHANGE_RESTORE,
                          _ ("Bring sessions back from the trash, or else from the archive."));
}

static int
sessions_trash (LoomCli *cli,
                int      argc,
                char   **argv)
{
  return sessions_change (cli, argc, argv, CHANGE_TRASH,
                          _ ("Move sessions to the trash. “loom sessions restore” undoes it."));
}

static int
sessions_rename (LoomCli *cli,
                 int      argc,
                 char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("ID TITLE"));
  g_autoptr (GError) error = NULL;
  gboolean           json = FALSE;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = { { "json", 0, 0, G_OPTION_ARG_NONE, &json,
                                     N_ ("Print the renamed session as JSON"), NULL },
                                   { NULL } };

  g_option_context_set_summary (context, _ ("Give a session a new title. The convention is "
                                            "“<descriptive name> - YYYY-MM-DD”."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc != 3)
    return loom_cli_usage_error (context, _ ("give a session id and the new title"));

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!loom_store_rename_session (store, argv[1], argv[2], &error))
    return loom_cli_fail (error);
  return report_session (store, argv[1], json, _ ("Renamed"));
}

static int
sessions_move (LoomCli *cli,
               int      argc,
               char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("ID [FOLDER]"));
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  gboolean           json = FALSE, no_folder = FALSE;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = { { "no-folder", 0, 0, G_OPTION_ARG_NONE, &no_folder,
                                     N_ ("Take the session out of its folder"), NULL },
                                   { "json", 0, 0, G_OPTION_ARG_NONE, &json,
                                     N_ ("Print the moved session as JSON"), NULL },
                                   { NULL } };

  g_option_context_set_summary (context, _ ("File a session in a folder (by name or id). A "
                                            "session is in at most one folder."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (!(argc == 3 && !no_folder) && !(argc == 2 && no_folder))
    return loom_cli_usage_error (context, _ ("give a session id and a folder, or --no-folder"));

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!no_folder && !(folder = loom_store_find_folder (store, argv[2], &error)))
    return loom_cli_fail (error);
  if (!loom_store_move_session (store, argv[1], folder ? loom_folder_get_id (folder) : 0, &error))
    return loom_cli_fail (error);
  return report_session (store, argv[1], json, _ ("Moved"));
}

static void
print_plan (LoomDeletePlan *plan,
            gboolean        dry_run)
{
  const char *const *tables = loom_delete_plan_get_tables (plan);
  guint              n = loom_delete_plan_get_n_sessions (plan);

  if (dry_run)
    printf (
      g_dngettext (GETTEXT_PACKAGE, "Would delete %u session:\n", "Would delete %u sessions:\n", n),
      n);
  else
    printf (g_dngettext (GETTEXT_PACKAGE, "Deleted %u session:\n", "Deleted %u sessions:\n", n), n);

  for (guint i = 0; i < n; i++)
    {
      LoomSession *session = loom_delete_plan_get_session (plan, i);
      printf ("  %.8s  %s\n", loom_session_get_uuid (session), loom_session_get_title (session));
    }

  printf (dry_run ? _ ("Rows that would be removed:\n") : _ ("Rows removed:\n"));
  for (guint i = 0; tables[i] != NULL; i++)
    printf ("  %-14s %8" G_GSIZE_FORMAT "\n", tables[i], loom_delete_plan_count (plan, tables[i]));
}

static int
run_delete_plan (LoomStore      *store,
                 LoomDeletePlan *plan,
                 gboolean        dry_run,
                 gboolean        json)
{
  g_autoptr (GError) error = NULL;

  if (!dry_run && !loom_store_execute_delete (store, plan, &error))
    return loom_cli_fail (error);

  if (json)
    {
      g_autoptr (JsonNode) node = loom_delete_plan_to_json (plan);

      json_object_set_boolean_member (json_node_get_object (node), "dry_run", dry_run);
      loom_cli_print_json (node);
    }
  else
    print_plan (plan, dry_run);
  return LOOM_EXIT_OK;
}

static int
sessions_delete (LoomCli *cli,
                 int      argc,
                 char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("ID…"));
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  gboolean           json = FALSE, dry_run = FALSE;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = { { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &dry_run,
                                     N_ ("Only list exactly what would be removed"), NULL },
                                   { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"),
                                     NULL },
                                   { NULL } };

  g_option_context_set_summary (context,
                                _ ("Delete sessions permanently from the store, with their "
                                   "sub-agent sessions, messages, events and search entries. "
                                   "The agents' own files are never touched, and a deleted "
                                   "session is not imported again."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return loom_cli_usage_error (context, _ ("give at least one session id"));

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(plan = loom_store_plan_delete (store, (const char *const *)argv + 1, &error)))
    return loom_cli_fail (error);
  return run_delete_plan (store, plan, dry_run, json);
}

static int
sessions_empty_trash (LoomCli *cli,
                      int      argc,
                      char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  gboolean           json = FALSE, dry_run = FALSE;
  LoomStore         *store;
  int                status;
  const GOptionEntry entries[] = { { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &dry_run,
                                     N_ ("Only list exactly what would be removed"), NULL },
                                   { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"),
                                     NULL },
                                   { NULL } };

  g_option_context_set_summary (context, _ ("Delete every session in the trash permanently."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc > 1)
    return loom_cli_usage_error (context, _ ("unexpected argument “%s”"), argv[1]);

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(plan = loom_store_plan_empty_trash (store, &error)))
    return loom_cli_fail (error);
  return run_delete_plan (store, plan, dry_run, json);
}

static const LoomCliCommand session_commands[] = {
  { "list", sessions_list, N_ ("List sessions") },
  { "show", sessions_show, N_ ("Show one session") },
  { "rename", sessions_rename, N_ ("Give a session a new title") },
  { "pin", sessions_pin, N_ ("Pin sessions") },
  { "unpin", sessions_unpin, N_ ("Unpin sessions") },
  { "archive", sessions_archive, N_ ("Archive sessions") },
  { "restore", sessions_restore, N_ ("Restore sessions from the trash or the archive") },
  { "trash", sessions_trash, N_ ("Move sessions to the trash") },
  { "delete", sessions_delete, N_ ("Delete sessions permanently (see --dry-run)") },
  { "empty-trash", sessions_empty_trash, N_ ("Delete every session in the trash") },
  { "move", sessions_move, N_ ("File a session in a folder") },
  { "export", loom_cli_sessions_export, N_ ("Write sessions as packages into a folder") },
  { NULL }
};

int
loom_cli_sessions (LoomCli *cli,
                   int      argc,
                   char   **argv)
{
  return loom_cli_dispatch (cli, "sessions", session_commands, argc, argv);
}
