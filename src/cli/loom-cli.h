/* loom-cli.h — the `loom` command line: shared context and the command groups.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "loom-backup-key.h"
#include "loom-store.h"

G_BEGIN_DECLS

/* Exit statuses: scripts tell a failed operation from a mistyped command. */
enum
{
  LOOM_EXIT_OK = 0,
  LOOM_EXIT_FAILED = 1,
  LOOM_EXIT_USAGE = 2,
};

typedef struct
{
  const char *db_path; /* --db, NULL for the default */
  LoomStore  *store;   /* opened on first use */
} LoomCli;

typedef int (*LoomCliCommandFunc) (LoomCli *cli,
                                   int      argc,
                                   char   **argv);

typedef struct
{
  const char        *name;
  LoomCliCommandFunc run;
  const char        *summary;
} LoomCliCommand;

int loom_cli_run (int    argc,
                  char **argv);

/* Opens the store lazily, printing the error when it fails. */
LoomStore *loom_cli_get_store (LoomCli *cli);
/* Prints "loom: MESSAGE" to stderr and returns LOOM_EXIT_FAILED. */
int        loom_cli_fail (const GError *error);
int        loom_cli_usage_error (GOptionContext *context,
                                 const char     *format,
                                 ...) G_GNUC_PRINTF (2,
                                                     3);
/* Parses a subcommand's options; on --help prints help and sets *exit_status to 0. */
gboolean   loom_cli_parse (GOptionContext *context,
                           int            *argc,
                           char         ***argv,
                           int            *exit_status);
void       loom_cli_print_json (JsonNode *node);
int        loom_cli_dispatch (LoomCli              *cli,
                              const char           *group,
                              const LoomCliCommand *commands,
                              int                   argc,
                              char                **argv);

int loom_cli_sessions (LoomCli *cli,
                       int      argc,
                       char   **argv);
/* `sessions export`, in loom-cli-export.c. */
int loom_cli_sessions_export (LoomCli *cli,
                              int      argc,
                              char   **argv);
int loom_cli_folders (LoomCli *cli,
                      int      argc,
                      char   **argv);
int loom_cli_import (LoomCli *cli,
                     int      argc,
                     char   **argv);
int loom_cli_search (LoomCli *cli,
                     int      argc,
                     char   **argv);
int loom_cli_restore (LoomCli *cli,
                      int      argc,
                      char   **argv);

/* Says once, on stderr, that a backup key was created, with its recovery key. */
void loom_cli_tell_new_backup_key (const LoomBackupKey *key);

int loom_cli_sweep (LoomCli *cli,
                    int      argc,
                    char   **argv);
int loom_cli_index (LoomCli *cli,
                    int      argc,
                    char   **argv);
int loom_cli_backup_key (LoomCli *cli,
                         int      argc,
                         char   **argv);

G_END_DECLS
