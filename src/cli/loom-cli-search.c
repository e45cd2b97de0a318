/* loom-cli-search.c — `loom search`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "loom-cli.h"
#include "loom-search.h"

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

/* Matches in bold on a terminal, «between guillemets» elsewhere; snippets on one line. */
static char *
format_snippet (const char *snippet,
                gboolean    terminal)
{
  g_autoptr (GString) text = g_string_new (snippet);

  g_string_replace (text, LOOM_SEARCH_MARK_START, terminal ? "\033[1m" : "«", 0);
  g_string_replace (text, LOOM_SEARCH_MARK_END, terminal ? "\033[0m" : "»", 0);
  g_string_replace (text, "\n", " ", 0);
  g_string_replace (text, "\r", " ", 0);
  g_string_replace (text, "\t", " ", 0);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

int
loom_cli_search (LoomCli *cli,
                 int      argc,
                 char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("QUERY…"));
  g_autoptr (GListModel) hits = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *session = NULL;
  g_autofree char   *query = NULL;
  gboolean           json = FALSE;
  int                limit = 20, offset = 0;
  LoomStore         *store;
  gboolean           terminal;
  int                status;
  guint              n;
  const GOptionEntry entries[] = {
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, N_ ("Show at most N hits (default 20)"),
      N_ ("N") },
    { "offset", 0, 0, G_OPTION_ARG_INT, &offset, N_ ("Skip the first N hits"), N_ ("N") },
    { "session", 's', 0, G_OPTION_ARG_STRING, &session, N_ ("Search within one session"),
      N_ ("ID") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
                                _ ("Search all history, best hits first.\n\n"
                                   "  words            every word must occur\n"
                                   "  \"exact phrase\"   the words in this order\n"
                                   "  prefix*          words starting so\n"
                                   "  a OR b           either word\n"
                                   "  -word            leave out hits with this word\n"
                                   "  agent:codex  project:NAME  folder:NAME  tool:Bash\n"
                                   "  role:user|assistant|tool|reasoning|system  model:NAME\n"
                                   "  after:2026-10-01  before:2026-11-01\n"
                                   "  in:archived|trash|pinned  has:error"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!loom_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return loom_cli_usage_error (context, _ ("give something to search for"));
  if (limit <= 0 || offset < 0)
    return loom_cli_usage_error (context, _ ("--limit must be positive and --offset not negative"));

  /* The words may come as one argument or several: the shell splits them either way. */
  query = g_strjoinv (" ", argv + 1);

  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (session != NULL)
    hits = loom_store_search_session (store, session, query, (guint)limit, &error);
  else
    hits = loom_store_search (store, query, (guint)offset, (guint)limit, &error);
  if (hits == NULL)
    return loom_cli_fail (error);

  n = g_list_model_get_n_items (hits);
  if (json)
    {
      g_autoptr (JsonArray) array = json_array_new ();
      g_autoptr (JsonNode) node = json_node_new (JSON_NODE_ARRAY);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr (LoomSearchHit) hit = g_list_model_get_item (hits, i);
          json_array_add_element (array, loom_search_hit_to_json (hit));
        }
      json_node_set_array (node, array);
      loom_cli_print_json (node);
      return LOOM_EXIT_OK;
    }

  if (n == 0)
    {
      g_printerr (_ ("No hits.\n"));
      return LOOM_EXIT_OK;
    }

  terminal = isatty (STDOUT_FILENO);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LoomSearchHit) hit = g_list_model_get_item (hits, i);
      const LoomSearchHitData *d = loom_search_hit_get_data (hit);
      g_autofree char         *date = format_local_time (d->created_at);
      g_autofree char         *snippet = format_snippet (d->snippet ? d->snippet : "", terminal);
      g_autofree char         *item = d->seq > 0 ? g_strdup_printf ("#%" G_GINT64_FORMAT, d->seq)
                                                 : g_strdup ("-");

      printf ("%.8s  %-6s  %-9s  %s  %s\n    %s\n", d->session_uuid, item, d->kind, date,
              d->session_title, snippet);
    }
  return LOOM_EXIT_OK;
}
