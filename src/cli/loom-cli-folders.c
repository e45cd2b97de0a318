/* loom-cli-folders.c — `loom folders …` and `loom index …`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "loom-cli.h"

/* Parses a command with only --json and exactly @n_args positional arguments. */
static gboolean
parse_simple (GOptionContext *context,
              const char     *summary,
              int            *argc,
              char         ***argv,
              int             n_args,
              const char     *usage,
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
  if (*argc != n_args + 1)
    {
      *status = loom_cli_usage_error (context, "%s", usage);
      return FALSE;
    }
  return TRUE;
}

static int
print_folder (LoomFolder *folder,
              gboolean    json,
              const char *done)
{
  if (json)
    {
      g_autoptr (JsonNode) node = loom_folder_to_json (folder);
      loom_cli_print_json (node);
    }
  else
    printf ("%s: %s\n", done, loom_folder_get_name (folder));
  return LOOM_EXIT_OK;
}

static int
folders_list (LoomCli *cli,
              int      argc,
              char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GListModel) folders = NULL;
  g_autoptr (GError) error = NULL;
  gboolean   json = FALSE;
  LoomStore *store;
  int        status;
  guint      n;

  if (!parse_simple (context, _ ("List folders in their order, with their session counts."), &argc,
                     &argv, 0, _ ("folders list takes no arguments"), &json, &status))
    return status;
  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(folders = loom_store_list_folders (store, &error)))
    return loom_cli_fail (error);

  n = g_list_model_get_n_items (folders);
  if (json)
    {
      g_autoptr (JsonArray) array = json_array_new ();
      g_autoptr (JsonNode) node = json_node_new (JSON_NODE_ARRAY);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);
          json_array_add_element (array, loom_folder_to_json (folder));
        }
      json_node_set_array (node, array);
      loom_cli_print_json (node);
      return LOOM_EXIT_OK;
    }

  if (n == 0)
    {
      g_printerr (_ ("No folders. Create one with “loom folders create NAME”.\n"));
      return LOOM_EXIT_OK;
    }
  printf ("%5s  %8s  %s\n", _ ("ID"), _ ("SESSIONS"), _ ("NAME"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);
      printf ("%5" G_GINT64_FORMAT "  %8" G_GINT64_FORMAT "  %s\n", loom_folder_get_id (folder),
              loom_folder_get_n_sessions (folder), loom_folder_get_name (folder));
    }
  return LOOM_EXIT_OK;
}

static int
folders_create (LoomCli *cli,
                int      argc,
                char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("NAME"));
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  gboolean   json = FALSE;
  LoomStore *store;
  int        status;

  if (!parse_simple (context, _ ("Create a folder."), &argc, &argv, 1, _ ("give the folder’s name"),
                     &json, &status))
    return status;
  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(folder = loom_store_create_folder (store, argv[1], &error)))
    return loom_cli_fail (error);
  return print_folder (folder, json, _ ("Created folder"));
}

static int
folders_rename (LoomCli *cli,
                int      argc,
                char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("FOLDER NEW-NAME"));
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (LoomFolder) renamed = NULL;
  g_autoptr (GError) error = NULL;
  gboolean   json = FALSE;
  LoomStore *store;
  int        status;

  if (!parse_simple (context, _ ("Rename a folder (given by name or id)."), &argc, &argv, 2,
                     _ ("give the folder and its new name"), &json, &status))
    return status;
  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(folder = loom_store_find_folder (store, argv[1], &error)) ||
      !loom_store_rename_folder (store, loom_folder_get_id (folder), argv[2], &error) ||
      !(renamed = loom_store_find_folder (store, argv[2], &error)))
    return loom_cli_fail (error);
  return print_folder (renamed, json, _ ("Renamed folder"));
}

static int
folders_reorder (LoomCli *cli,
                 int      argc,
                 char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("FOLDER POSITION"));
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (LoomFolder) moved = NULL;
  g_autoptr (GError) error = NULL;
  gboolean   json = FALSE;
  guint64    position = 0;
  LoomStore *store;
  int        status;

  if (!parse_simple (context, _ ("Move a folder to a position in the list (0 is the top)."), &argc,
                     &argv, 2, _ ("give the folder and its new position"), &json, &status))
    return status;
  if (!g_ascii_string_to_unsigned (argv[2], 10, 0, G_MAXUINT, &position, NULL))
    return loom_cli_usage_error (context, _ ("“%s” is not a position"), argv[2]);
  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(folder = loom_store_find_folder (store, argv[1], &error)) ||
      !loom_store_reorder_folder (store, loom_folder_get_id (folder), (guint)position, &error) ||
      !(moved = loom_store_find_folder (store, loom_folder_get_name (folder), &error)))
    return loom_cli_fail (error);
  return print_folder (moved, json, _ ("Moved folder"));
}

static int
folders_delete (LoomCli *cli,
                int      argc,
                char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("FOLDER"));
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  gboolean   json = FALSE;
  guint      released = 0;
  LoomStore *store;
  int        status;

  if (!parse_simple (context, _ ("Delete a folder. Its sessions are kept and leave the folder."),
                     &argc, &argv, 1, _ ("give the folder’s name or id"), &json, &status))
    return status;
  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!(folder = loom_store_find_folder (store, argv[1], &error)) ||
      !loom_store_delete_folder (store, loom_folder_get_id (folder), &released, &error))
    return loom_cli_fail (error);

  if (json)
    {
      g_autoptr (JsonNode) node = loom_folder_to_json (folder);

      json_object_set_int_member (json_node_get_object (node), "released_sessions", released);
      loom_cli_print_json (node);
    }
  else
    printf (g_dngettext (
              GETTEXT_PACKAGE, "Deleted folder: %s (%u session left the folder and was kept)\n",
              "Deleted folder: %s (%u sessions left the folder and were kept)\n", released),
            loom_folder_get_name (folder), released);
  return LOOM_EXIT_OK;
}

static const LoomCliCommand folder_commands[] = {
  { "list", folders_list, N_ ("List folders") },
  { "create", folders_create, N_ ("Create a folder") },
  { "rename", folders_rename, N_ ("Rename a folder") },
  { "reorder", folders_reorder, N_ ("Move a folder up or down the list") },
  { "delete", folders_delete, N_ ("Delete a folder, keeping its sessions") },
  { NULL }
};

int
loom_cli_folders (LoomCli *cli,
                  int      argc,
                  char   **argv)
{
  return loom_cli_dispatch (cli, "folders", folder_commands, argc, argv);
}

static int
index_rebuild (LoomCli *cli,
               int      argc,
               char   **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  gboolean   json = FALSE;
  LoomStore *store;
  int        status;

  if (!parse_simple (context, _ ("Rebuild the full-text search index from the stored sessions."),
                     &argc, &argv, 0, _ ("index rebuild takes no arguments"), &json, &status))
    return status;
  if (!(store = loom_cli_get_store (cli)))
    return LOOM_EXIT_FAILED;
  if (!loom_store_rebuild_index (store, &error))
    return loom_cli_fail (error);
  if (!json)
    printf (_ ("The search index was rebuilt.\n"));
  else
    puts ("{ \"rebuilt\" : true }");
  return LOOM_EXIT_OK;
}

static const LoomCliCommand index_commands[] = { { "rebuild", index_rebuild,
                                                   N_ ("Rebuild the search index") },
                                                 { NULL } };

int
loom_cli_index (LoomCli *cli,
                int      argc,
                char   **argv)
{
  return loom_cli_dispatch (cli, "index", index_commands, argc, argv);
}
