/* loom-cli.c — global options, command dispatch and the helpers every command shares.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "loom-cli.h"
#include "loom-core.h"

static const LoomCliCommand top_commands[] = {
  { "import", loom_cli_import, N_ ("Import sessions from the agents’ files") },
  { "search", loom_cli_search, N_ ("Search all history") },
  { "sessions", loom_cli_sessions, N_ ("List, show and organise sessions") },
  { "folders", loom_cli_folders, N_ ("Create, rename, reorder and delete folders") },
  { "restore", loom_cli_restore, N_ ("Restore sessions from backups") },
  { "sweep", loom_cli_sweep, N_ ("Archive old sessions after a verified backup of each") },
  { "index", loom_cli_index, N_ ("Maintain the search index") },
  { "backup-key", loom_cli_backup_key, N_ ("The key that encrypts backups, and its recovery key") },
  { NULL }
};

/* Commands that hold subcommands: their usage lines name both words. */
static gboolean
is_group (const char *command)
{
  return g_str_equal (command, "sessions") || g_str_equal (command, "folders") ||
         g_str_equal (command, "index") || g_str_equal (command, "backup-key");
}

/* The program name shows in every usage line ("Usage: loom sessions list …"). GLib wants it
 * set once, so it is worked out from the command line before anything runs. */
static void
set_program_name (int    argc,
                  char **argv)
{
  g_autofree char *name = NULL;
  int              i = 1;

  while (i < argc && argv[i][0] == '-')
    i += g_str_equal (argv[i], "--db") ? 2 : 1;

  if (i >= argc)
    name = g_strdup ("loom");
  else if (is_group (argv[i]) && i + 1 < argc && argv[i + 1][0] != '-')
    name = g_strdup_printf ("loom %s %s", argv[i], argv[i + 1]);
  else
    name = g_strdup_printf ("loom %s", argv[i]);
  g_set_prgname (name);
}

static void
print_commands (FILE                 *out,
                const LoomCliCommand *commands)
{
  for (guint i = 0; commands[i].name != NULL; i++)
    fprintf (out, "  %-12s %s\n", commands[i].name, _ (commands[i].summary));
}

static void
print_top_help (FILE *out)
{
  g_autofree char *default_path = NULL;

  fprintf (out, _ ("Usage: loom [--db PATH] COMMAND [ARGUMENTS…]\n\n"
                   "Keep a private, searchable history of your coding-agent sessions.\n\n"
                   "Commands:\n"));
  print_commands (out, top_commands);
  default_path = loom_store_default_path ();
  fprintf (out,
           _ ("\nOptions:\n"
              "  --db PATH      Use the store at PATH instead of %s\n"
              "                 (the environment variable LOOM_DB does the same)\n"
              "  --version      Print the version and exit\n"
              "  -h, --help     Print this help and exit\n\n"
              "Run “loom COMMAND --help” for the options of a command.\n"),
           default_path);
}

LoomStore *
loom_cli_get_store (LoomCli *cli)
{
  g_autoptr (GError) error = NULL;

  if (cli->store != NULL)
    return cli->store;

  cli->store = loom_store_open (cli->db_path, &error);
  if (cli->store == NULL)
    {
      loom_cli_fail (error);
      return NULL;
    }

  if (loom_store_get_recovered_path (cli->store) != NULL)
    g_printerr (_ ("loom: the store was damaged; it was kept as “%s” and a new one was started\n"),
                loom_store_get_recovered_path (cli->store));
  return cli->store;
}

int
loom_cli_fail (const GError *error)
{
  g_printerr ("loom: %s\n", error->message);
  return LOOM_EXIT_FAILED;
}

int
loom_cli_usage_error (GOptionContext *context,
                      const char     *format,
                      ...)
{
  g_autofree char *message = NULL;
  va_list          args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr ("%s: %s\n", g_get_prgname (), message);
  if (context != NULL)
    g_printerr (_ ("Try “%s --help” for more information.\n"), g_get_prgname ());
  return LOOM_EXIT_USAGE;
}

gboolean
loom_cli_parse (GOptionContext *context,
                int            *argc,
                char         ***argv,
                int            *exit_status)
{
  g_autoptr (GError) error = NULL;
  gboolean           help = FALSE;
  const GOptionEntry help_entries[] = {
    { "help", 'h', 0, G_OPTION_ARG_NONE, &help, N_ ("Show this help"), NULL }, { NULL }
  };

  /* GOption's own --help would exit() from inside the parser; ours returns normally. */
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_add_main_entries (context, help_entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *exit_status = loom_cli_usage_error (context, "%s", error->message);
      return FALSE;
    }

  if (help)
    {
      g_autofree char *text = g_option_context_get_help (context, TRUE, NULL);

      fputs (text, stdout);
      *exit_status = LOOM_EXIT_OK;
      return FALSE;
    }

  return TRUE;
}

void
loom_cli_print_json (JsonNode *node)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  /* File names are bytes: a project folder whose name is not UTF-8 would make the output
   * something no JSON reader takes. Such bytes can only stand inside strings, so replacing
   * them keeps the document whole; the text output shows the name as it is. */
  if (!g_utf8_validate (text, -1, NULL))
    {
      char *valid = g_utf8_make_valid (text, -1);

      g_free (text);
      text = valid;
    }
  puts (text);
}

int
loom_cli_dispatch (LoomCli              *cli,
                   const char           *group,
                   const LoomCliCommand *commands,
                   int                   argc,
                   char                **argv)
{
  const char *name = argc > 1 ? argv[1] : NULL;

  if (name == NULL || g_str_equal (name, "--help") || g_str_equal (name, "-h") ||
      g_str_equal (name, "help"))
    {
      FILE *out = name != NULL ? stdout : stderr;

      fprintf (out, _ ("Usage: loom %s COMMAND [ARGUMENTS…]\n\nCommands:\n"), group);
      print_commands (out, commands);
      fprintf (out, _ ("\nRun “loom %s COMMAND --help” for the options of a command.\n"), group);
      return name != NULL ? LOOM_EXIT_OK : LOOM_EXIT_USAGE;
    }

  for (guint i = 0; commands[i].name != NULL; i++)
    if (g_str_equal (name, commands[i].name))
      return commands[i].run (cli, argc - 1, argv + 1);

  g_printerr (_ ("loom %s: unknown command “%s”\n"), group, name);
  g_printerr (_ ("Try “loom %s --help” for the list of commands.\n"), group);
  return LOOM_EXIT_USAGE;
}

int
loom_cli_run (int    argc,
              char **argv)
{
  g_autofree char *db_path = NULL;
  LoomCli          cli = { 0 };
  int              status = LOOM_EXIT_USAGE;
  int              i;

  loom_core_init ();
  set_program_name (argc, argv);

  for (i = 1; i < argc && argv[i][0] == '-'; i++)
    {
      const char *arg = argv[i];

      if (g_str_equal (arg, "--version"))
        {
          printf ("loom %s\n", PACKAGE_VERSION);
          return LOOM_EXIT_OK;
        }
      else if (g_str_equal (arg, "--help") || g_str_equal (arg, "-h"))
        {
          print_top_help (stdout);
          return LOOM_EXIT_OK;
        }
      else if (g_str_equal (arg, "--db") && i + 1 < argc)
        {
          g_free (db_path);
          db_path = g_strdup (argv[++i]);
        }
      else if (g_str_has_prefix (arg, "--db="))
        {
          g_free (db_path);
          db_path = g_strdup (arg + strlen ("--db="));
        }
      else
        {
          g_printerr (_ ("loom: unknown option “%s”\n"), arg);
          g_printerr (_ ("Try “loom --help” for more information.\n"));
          return LOOM_EXIT_USAGE;
        }
    }

  if (db_path != NULL && *db_path == '\0')
    {
      g_printerr (_ ("loom: --db needs a path\n"));
      return LOOM_EXIT_USAGE;
    }
  cli.db_path = db_path;

  if (i >= argc)
    {
      print_top_help (stderr);
    }
  else
    {
      gboolean found = FALSE;

      for (guint c = 0; top_commands[c].name != NULL; c++)
        {
          if (g_str_equal (argv[i], top_commands[c].name))
            {
              status = top_commands[c].run (&cli, argc - i, argv + i);
              found = TRUE;
              break;
            }
        }
      if (!found)
        {
          g_printerr (_ ("loom: unknown command “%s”\n"), argv[i]);
          g_printerr (_ ("Try “loom --help” for the list of commands.\n"));
        }
    }

  g_clear_object (&cli.store);
  return status;
}
