/* loom-search-ui-test.h — what the search UI tests share (test-search-ui.c, the search of all
 * history; test-search-in-session.c, the search bar of the open session): a store prepared from
 * the import fixtures, the running application around it, and the waits for results and for a
 * hit highlighted in the timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-application.h"
#include "loom-search-results.h"
#include "loom-session-list.h"
#include "loom-timeline-row.h"
#include "loom-timeline-search-bar.h"
#include "loom-timeline-view.h"
#include "loom-window.h"

G_BEGIN_DECLS

#define N_FIXTURE_SESSIONS 19 /* tests/import/fixtures/claude + codex, sub-agents included */
/* The Codex fixture session that says "token" four times in its timeline, and "exited" in two
 * tool results. */
#define CODEX_TITLE        "Codex importer test - 2026-03-02"

/* 300 hits of "pagingword": three pages of results. */
#define N_PAGED_SESSIONS 60
#define N_PAGED_MESSAGES 5
#define PAGE_SIZE        100

/* One session that says "capword" in more messages than the session's search bar reads at
 * first. */
#define MANY_TITLE      "Many hits - 2026-11-29"
#define N_MANY_MESSAGES 1500
#define FIRST_HITS      1000

/* What a test needs in its store and around the application. */
typedef enum
{
  WITH_PAGED_SESSIONS = 1 << 0, /* N_PAGED_SESSIONS sessions saying "pagingword" */
  WITH_MANY_HITS = 1 << 1,      /* MANY_TITLE */
  WITH_WATCHED_FOLDER = 1 << 2, /* a Claude Code session in a folder the application watches */
} FixtureFlags;

/* The session the watched folder starts with, and what the agent adds to it. */
#define LIVE_SESSION_ID "5e55a0a0-0000-4000-8000-000000000001"
#define LIVE_SECOND_ID  "5e55a0a0-0000-4000-8000-000000000002"

typedef struct _Fixture Fixture;
typedef void (*TestBody) (Fixture *fixture);

struct _Fixture
{
  char            *dir;
  char            *db_path;
  LoomApplication *app;
  LoomWindow      *window;
  TestBody         body;
  FixtureFlags     flags;
  char            *watched; /* WITH_WATCHED_FOLDER: the folder, and its session file */
  char            *live_file;

  /* What the body works with, found once the window is open. */
  LoomSessionList       *list;
  GtkSearchEntry        *entry;
  LoomSearchResults     *results;
  LoomTimelineSearchBar *bar;
  LoomTimelineView      *view;
};

/* The test programs' start: GTK and libadwaita set up for stable screenshots, and the waits of
 * loom-ui-test.c given time enough for a slow machine. */
void search_ui_test_init (int    *argc,
                          char ***argv);

/* A store of the import fixtures, and what @user_data's FixtureFlags add to it and around the
 * application. */
void  fixture_set_up (Fixture      *fixture,
                      gconstpointer user_data);
void  fixture_tear_down (Fixture      *fixture,
                         gconstpointer user_data);
/* Runs the application with @body inside it, once its window is open. */
void  fixture_run (Fixture *fixture,
                   TestBody body);
char *session_uuid_titled (LoomStore  *store,
                           const char *title);

/* Playing Claude Code in the watched folder (WITH_WATCHED_FOLDER). */
void add_prompt_record (GString    *out,
                        const char *session_id,
                        guint       n,
                        const char *prompt);
void append_file (const char *path,
                  GString    *contents);

/* Waits until the results shown are those of @query, complete. */
void               wait_for_results (Fixture    *fixture,
                                     const char *query);
void               search_for (Fixture    *fixture,
                               const char *text);
GtkSelectionModel *results_selection (Fixture *fixture);
int                find_result (Fixture    *fixture,
                                const char *session_uuid,
                                gint64      seq);

LoomTimelineRow *highlighted_row (Fixture *fixture);
gint64           highlighted_seq (Fixture *fixture);
/* Waits until the timeline shows the row of @seq (or of the call whose result it is)
 * highlighted. */
void             wait_for_highlight (Fixture *fixture,
                                     gint64   seq);
/* The session's search bar has finished its search and says so: a LoomUiTestCondition on the
 * bar. */
gboolean         bar_done (gpointer data);

G_END_DECLS
