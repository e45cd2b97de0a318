/* test-export-assistant.c — the export assistant, as a person goes through it.
 *
 * The real application on a store of the Claude Code and Codex fixtures: the assistant is
 * opened through win.export-sessions (the session menu's, the header bar's and Ctrl+E's
 * action) on one session and on several, every page is walked, and the export runs for real
 * into a temporary folder, chosen through the assistant's setter as the folder chooser would.
 * The packages are then looked for on disk, and the result page's counts compared with them.
 * Cancelling, closing while an export runs, the default mode following the Redact Secrets
 * preference and the remembered folder are tested too. Screenshots of every page, light and
 * dark, narrow and wide, go to tests/app/screenshots/ in the build folder. Encrypted, the
 * export writes one .loombackup per session with the backup key of the harness's real keyring,
 * which a fresh store restores.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "loom-application.h"
#include "loom-backup-key.h"
#include "loom-backup.h"
#include "loom-core.h"
#include "loom-export-assistant.h"
#include "loom-import.h"
#include "loom-session.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-window.h"

#include "loom-ui-test.h"

#define WAIT_TIMEOUT_USEC loom_test_guard_usec (LOOM_TEST_GUARD_USEC)

#define NARROW_WIDTH 360
#define WIDE_WIDTH   760
#define HEIGHT       600

/* ——— Fixture: a store and a running application ——— */

typedef struct _Fixture Fixture;
typedef void (*TestBody) (Fixture *fixture);

struct _Fixture
{
  char            *dir;
  char            *db_path;
  char            *dest; /* where the packages go: empty at the start */
  LoomApplication *app;
  LoomWindow      *window;
  TestBody         body;
};

static char *
fixture_path (const char *name)
{
  const char *srcdir = g_getenv ("LOOM_TEST_SRCDIR");

  g_assert_nonnull (srcdir);
  return g_build_filename (srcdir, "import", "fixtures", name, NULL);
}

static void
prepare_store (Fixture *fixture)
{
  g_autofree char  *claude = fixture_path ("claude");
  g_autofree char  *codex = fixture_path ("codex");
  const char       *paths[] = { claude, codex, NULL };
  LoomImportOptions options = { NULL, paths };
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->sessions_new, >, 5);
}

/* A Claude Code session that read N_ARTIFACTS files of a workspace that exists: its package
 * copies them all, so that the progress shows the artifacts one after the other. */
#define N_ARTIFACTS    600
#define ARTIFACT_BYTES (32 * 1024)
#define CRAFTED_TITLE  "Read every file of the workspace"

static void
prepare_crafted_session (Fixture *fixture)
{
  g_autofree char *workspace = g_build_filename (fixture->dir, "workspace", NULL);
  g_autofree char *src = g_build_filename (workspace, "src", NULL);
  g_autofree char *folder = g_build_filename (fixture->dir, "crafted", NULL);
  g_autofree char *transcript = g_build_filename (folder, "transcript.jsonl", NULL);
  g_autofree char *filler = g_malloc (ARTIFACT_BYTES);
  g_autoptr (GString) calls = g_string_new (NULL);
  g_autoptr (GString) lines = g_string_new (NULL);
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (LoomImportStats) stats = NULL;
  g_autoptr (GError) error = NULL;
  const char *paths[] = { transcript, NULL };
  const char *session_id = "5d0c7f5e-8a43-4f1e-9b7a-0c2d9e6b1a42";

  g_assert_cmpint (g_mkdir_with_parents (src, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  memset (filler, 'x', ARTIFACT_BYTES);
  for (guint i = 0; i < ARTIFACT_BYTES; i += 64)
    filler[i] = '\n';
  for (guint i = 0; i < N_ARTIFACTS; i++)
    {
      g_autofree char *name = g_strdup_printf ("file-%03u.txt", i);
      g_autofree char *path = g_build_filename (src, name, NULL);

      g_assert_true (g_file_set_contents (path, filler, ARTIFACT_BYTES, &error));
      g_assert_no_error (error);
      g_string_append_printf (calls,
                              "%s{\"type\":\"tool_use\",\"id\":\"toolu_%03u\",\"name\":\"Read\","
                              "\"input\":{\"file_path\":\"%s\"}}",
                              i > 0 ? "," : "", i, path);
    }
  g_string_append_printf (lines,
                          "{\"type\":\"user\",\"uuid\":\"1a\",\"parentUuid\":null,"
                          "\"sessionId\":\"%s\",\"cwd\":\"%s\","
                          "\"timestamp\":\"2026-05-01T10:00:01.000Z\","
                          "\"message\":{\"role\":\"user\",\"content\":\"" CRAFTED_TITLE "\"}}\n",
                          session_id, workspace);
  g_string_append_printf (lines,
                          "{\"type\":\"assistant\",\"uuid\":\"2b\",\"parentUuid\":\"1a\","
                          "\"sessionId\":\"%s\",\"cwd\":\"%s\","
                          "\"timestamp\":\"2026-05-01T10:00:02.000Z\","
                          "\"message\":{\"id\":\"msg_1\",\"role\":\"assistant\","
                          "\"model\":\"claude-opus-4-5\",\"content\":[%s]}}\n",
                          session_id, workspace, calls->str);
  g_assert_true (g_file_set_contents (transcript, lines->str, lines->len, &error));
  g_assert_no_error (error);

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  stats = loom_test_import_paths (store, "claude-code", paths);
  g_assert_cmpuint (stats->sessions_new, ==, 1);
}

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("loom-test-export-assistant-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  fixture->dest = g_build_filename (fixture->dir, "exports", NULL);
  g_assert_cmpint (g_mkdir (fixture->dest, 0700), ==, 0);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);
  prepare_store (fixture);
  if (GPOINTER_TO_INT (user_data))
    prepare_crafted_session (fixture);
  loom_ui_test_prepare_settings (1280, 800);
}

static void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

  loom_ui_test_reset_settings ();
  g_unsetenv ("LOOM_DB");
  loom_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->db_path, g_free);
  g_clear_pointer (&fixture->dest, g_free);
  g_clear_pointer (&fixture->dir, g_free);
}

static gboolean
run_body_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 2);
  fixture->body (fixture);
  return G_SOURCE_REMOVE;
}

static void
fixture_run (Fixture *fixture,
             TestBody body)
{
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  fixture->body = body;
  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
}

static GSettings *
app_settings (void)
{
  return g_settings_new (APP_ID);
}

/* ——— Selecting and opening ——— */

static GtkSelectionModel *
session_selection (GtkWidget *window)
{
  g_autoptr (GPtrArray) lists = loom_ui_test_find_visible (window, GTK_TYPE_LIST_VIEW);

  for (guint i = 0; i < lists->len; i++)
    {
      GtkSelectionModel *model = gtk_list_view_get_model (lists->pdata[i]);
      g_autoptr (GObject) first = NULL;

      if (model != NULL && (first = g_list_model_get_item (G_LIST_MODEL (model), 0)) != NULL &&
          LOOM_IS_SESSION (first))
        return model;
    }
  g_assert_not_reached ();
}

/* Selects the first @n sessions of the list; returns how many it has. */
static guint
select_sessions (Fixture *fixture,
                 guint    n)
{
  GtkWidget         *window = GTK_WIDGET (fixture->window);
  GtkSelectionModel *selection = session_selection (window);
  guint              n_items = g_list_model_get_n_items (G_LIST_MODEL (selection));

  g_assert_cmpuint (n_items, >=, n);
  g_assert_true (gtk_selection_model_select_range (selection, 0, n, TRUE));
  loom_ui_test_wait_for_writes (fixture->window);
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_cmpuint (loom_window_get_n_selected_sessions (fixture->window), ==, n);
  return n_items;
}

static LoomExportAssistant *
find_assistant (void)
{
  GtkWindow *window = loom_ui_test_find_toplevel (LOOM_TYPE_EXPORT_ASSISTANT);

  return window != NULL ? LOOM_EXPORT_ASSISTANT (window) : NULL;
}

static gboolean
assistant_is_open (gpointer data)
{
  return find_assistant () != NULL;
}

/* Opens the assistant as Ctrl+E does, on the selection. */
static LoomExportAssistant *
open_assistant (Fixture *fixture)
{
  LoomExportAssistant *assistant;

  g_assert_true (
    loom_ui_test_press_key (GTK_WIDGET (fixture->window), GDK_KEY_e, GDK_CONTROL_MASK));
  g_assert_true (loom_ui_test_wait_until (assistant_is_open, NULL));
  assistant = find_assistant ();
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (assistant)) ==
                 GTK_WINDOW (fixture->window));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (assistant)));
  loom_ui_test_wait_for_frames (GTK_WIDGET (assistant), 2);
  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "detail");
  return assistant;
}

/* Closes @assistant as Escape does, and waits until it is gone for good. */
static void
close_assistant (LoomExportAssistant *assistant)
{
  g_object_add_weak_pointer (G_OBJECT (assistant), (gpointer *)&assistant);
  g_assert_true (loom_ui_test_press_key (GTK_WIDGET (assistant), GDK_KEY_Escape, 0));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &assistant));
}

typedef struct
{
  LoomExportAssistant *assistant;
  const char          *page;
} PageWait;

static gboolean
is_on_page (gpointer data)
{
  PageWait *wait = data;

  return g_strcmp0 (loom_export_assistant_get_page (wait->assistant), wait->page) == 0;
}

static void
wait_for_page (LoomExportAssistant *assistant,
               const char          *page)
{
  PageWait wait = { assistant, page };

  g_assert_true (loom_ui_test_wait_until (is_on_page, &wait));
  loom_ui_test_wait_for_frames (GTK_WIDGET (assistant), 2);
}

static void
activate (LoomExportAssistant *assistant,
          const char          *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (assistant), action, NULL));
  loom_ui_test_wait_for_frames (GTK_WIDGET (assistant), 2);
}

/* @name-light/-dark at the wide size, and @name-narrow-light/-dark at the narrow one. */
static void
save_page_screenshots (Fixture             *fixture,
                       LoomExportAssistant *assistant,
                       const char          *name)
{
  GtkWidget       *widget = GTK_WIDGET (assistant);
  g_autofree char *narrow = g_strconcat (name, "-narrow", NULL);

  loom_ui_test_set_window_size (widget, WIDE_WIDTH, HEIGHT);
  loom_ui_test_save_screenshots (fixture->app, widget, name);
  loom_ui_test_set_window_size (widget, NARROW_WIDTH, HEIGHT);
  loom_ui_test_save_screenshots (fixture->app, widget, narrow);
}

static gboolean
shows_first_session (gpointer data)
{
  LoomExportAssistant *assistant = data;
  g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (GTK_WIDGET (assistant), GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (g_str_has_prefix (gtk_label_get_text (labels->pdata[i]), "Session 1 of "))
      return TRUE;
  return FALSE;
}

/* The progress page at both sizes and in both styles while the export is held (it would be
 * through before the page is drawn), then let go. */
static void
save_while_held (Fixture             *fixture,
                 LoomExportAssistant *assistant,
                 const char          *base)
{
  GtkWidget *widget = GTK_WIDGET (assistant);

  for (guint i = 0; i < 4; i++)
    {
      gboolean         narrow = i >= 2;
      g_autofree char *name = g_strdup_printf ("%s%s-%s", base, narrow ? "-narrow" : "",
                                               i % 2 == 0 ? "light" : "dark");

      g_assert_true (loom_export_assistant_get_running (assistant));
      loom_ui_test_set_window_size (widget, narrow ? NARROW_WIDTH : WIDE_WIDTH, HEIGHT);
      loom_ui_test_set_style (fixture->app, widget, i % 2 == 0 ? "light" : "dark");
      loom_ui_test_save_screenshot (widget, name);
    }
  loom_ui_test_set_style (fixture->app, widget, "light");
  loom_ui_test_set_window_size (widget, WIDE_WIDTH, HEIGHT);
  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "progress");
  loom_export_assistant_hold_export (assistant, NULL);
}

/* ——— What landed on disk ——— */

/* Adds up the regular files below @dir and their sizes. */
static void
count_files (const char *dir,
             guint      *n_files,
             guint64    *n_bytes)
{
  g_autoptr (GDir) handle = NULL;
  g_autoptr (GError) error = NULL;
  const char *name;

  handle = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf         st;

      g_assert_cmpint (g_lstat (path, &st), ==, 0);
      if (S_ISDIR (st.st_mode))
        count_files (path, n_files, n_bytes);
      else if (S_ISREG (st.st_mode))
        {
          (*n_files)++;
          *n_bytes += st.st_size;
        }
    }
}

/* From the detail page, the choices as they are, to the destination page with @dest chosen
 * (as the folder chooser would). */
static void
choose_destination (LoomExportAssistant *assistant,
                    const char          *dest)
{
  activate (assistant, "assistant.next");
  activate (assistant, "assistant.next");
  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "destination");
  loom_export_assistant_set_destination (assistant, dest);
}

/* Every entry of the destination is a finished package (a folder with its manifest): no
 * temporary folder, no half-written package. Returns how many there are, and their files. */
static guint
assert_only_packages (const char *dest,
                      guint      *n_files,
                      guint64    *n_bytes)
{
  g_autoptr (GDir) handle = NULL;
  g_autoptr (GError) error = NULL;
  const char *name;
  guint       n_packages = 0;

  handle = g_dir_open (dest, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dest, name, NULL);
      g_autofree char *manifest = g_build_filename (path, "manifest.json", NULL);

      g_test_message ("package: %s", name);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
      g_assert_true (g_file_test (manifest, G_FILE_TEST_IS_REGULAR));
      if (n_files != NULL)
        count_files (path, n_files, n_bytes);
      n_packages++;
    }
  return n_packages;
}

static gboolean
shows_row (GtkWidget  *root,
           const char *title,
           const char *value)
{
  g_autoptr (GPtrArray) rows = loom_ui_test_find_visible (root, ADW_TYPE_ACTION_ROW);

  for (guint i = 0; i < rows->len; i++)
    {
      if (g_strcmp0 (adw_preferences_row_get_title (rows->pdata[i]), title) == 0)
        return value == NULL || loom_ui_test_find_visible_label (rows->pdata[i], value) != NULL;
    }
  return FALSE;
}

/* ——— Tests ——— */

/* One session, every page on the way, the export for real, and what the result page says. */
static void
one_session_body (Fixture *fixture)
{
  LoomExportAssistant *assistant;
  GtkWidget           *widget;
  g_autofree char     *files = NULL;
  g_autofree char     *size = NULL;
  guint                n_files = 0;
  guint64              n_bytes = 0;

  select_sessions (fixture, 1);
  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);

  /* a. Detail: Full by default. Enter goes on, as Next does. */
  g_assert_cmpint (loom_export_assistant_get_detail (assistant), ==, LOOM_EXPORT_DETAIL_FULL);
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Export Session"));
  save_page_screenshots (fixture, assistant, "export-detail");
  loom_export_assistant_set_detail (assistant, LOOM_EXPORT_DETAIL_TOOLS);
  g_assert_true (loom_ui_test_press_key (widget, GDK_KEY_Return, 0));
  wait_for_page (assistant, "mode");

  /* b. Mode: Redacted, since the preference is on by default; Back returns. */
  g_assert_cmpint (loom_export_assistant_get_mode (assistant), ==, LOOM_EXPORT_MODE_REDACTED);
  save_page_screenshots (fixture, assistant, "export-mode");
  activate (assistant, "assistant.back");
  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "detail");
  g_assert_cmpint (loom_export_assistant_get_detail (assistant), ==, LOOM_EXPORT_DETAIL_TOOLS);
  activate (assistant, "assistant.next");
  activate (assistant, "assistant.next");

  /* c. Destination: none yet, so Export cannot be pressed. */
  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "destination");
  g_assert_null (loom_export_assistant_get_destination (assistant));
  g_assert_false (
    gtk_widget_is_sensitive (loom_ui_test_find_visible_button_labelled (widget, "_Export")));
  save_page_screenshots (fixture, assistant, "export-destination-none");
  loom_export_assistant_set_destination (assistant, fixture->dest);
  save_page_screenshots (fixture, assistant, "export-destination");
  g_assert_true (
    gtk_widget_is_sensitive (loom_ui_test_find_visible_button_labelled (widget, "_Export")));

  /* d, e. The export, then its result. */
  loom_ui_test_set_window_size (widget, WIDE_WIDTH, HEIGHT);
  activate (assistant, "assistant.export");
  wait_for_page (assistant, "result");
  g_assert_false (loom_export_assistant_get_running (assistant));

  g_assert_cmpuint (assert_only_packages (fixture->dest, &n_files, &n_bytes), ==, 1);
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Session Exported"));
  files = g_strdup_printf ("%'u", n_files);
  size = g_format_size (n_bytes);
  g_assert_true (shows_row (widget, "Files", files));
  g_assert_true (shows_row (widget, "Total Size", size));
  g_assert_nonnull (loom_ui_test_find_visible_button_labelled (widget, "_Open Folder"));
  g_assert_nonnull (loom_ui_test_find_visible_button_labelled (widget, "Copy _Path"));
  save_page_screenshots (fixture, assistant, "export-result");

  /* Nothing was remembered: the switch was off. */
  {
    g_autoptr (GSettings) settings = app_settings ();
    g_autofree char *saved = g_settings_get_string (settings, "export-folder");

    g_assert_cmpstr (saved, ==, "");
  }
  close_assistant (assistant);
}

static void
test_one_session (Fixture      *fixture,
                  gconstpointer user_data)
{
  fixture_run (fixture, one_session_body);
}

/* Several sessions: one package each, one progress, and the counts of them all. */
static void
several_sessions_body (Fixture *fixture)
{
  LoomExportAssistant *assistant;
  GtkWidget           *widget;
  guint                n_files = 0;
  guint64              n_bytes = 0;
  g_autofree char     *files = NULL;

  select_sessions (fixture, 3);
  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Export 3 Sessions"));

  loom_export_assistant_set_mode (assistant, LOOM_EXPORT_MODE_FULL);
  choose_destination (assistant, fixture->dest);
  activate (assistant, "assistant.export");
  wait_for_page (assistant, "result");

  g_assert_cmpuint (assert_only_packages (fixture->dest, &n_files, &n_bytes), ==, 3);
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "3 Sessions Exported"));
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, fixture->dest));
  files = g_strdup_printf ("%'u", n_files);
  g_assert_true (shows_row (widget, "Packages", "3"));
  g_assert_true (shows_row (widget, "Files", files));
  save_page_screenshots (fixture, assistant, "export-result-several");
  close_assistant (assistant);
}

static void
test_several_sessions (Fixture      *fixture,
                       gconstpointer user_data)
{
  fixture_run (fixture, several_sessions_body);
}

/* Every session, so that the progress page is on show long enough to be looked at; then a
 * cancel: what was finished stays whole, nothing else is left. */
static void
cancel_body (Fixture *fixture)
{
  LoomExportAssistant *assistant;
  GtkWidget           *widget;
  guint                n_sessions;

  n_sessions = g_list_model_get_n_items (
    G_LIST_MODEL (session_selection (GTK_WIDGET (fixture->window))));
  select_sessions (fixture, n_sessions);
  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);

  choose_destination (assistant, fixture->dest);
  loom_ui_test_set_window_size (widget, WIDE_WIDTH, HEIGHT);
  g_assert_true (gtk_widget_activate_action (widget, "assistant.export", NULL));
  g_assert_true (loom_export_assistant_get_running (assistant));
  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "progress");

  /* The Cancel button's action: the export stops, and the assistant stays to say so. */
  g_assert_true (gtk_widget_activate_action (widget, "assistant.cancel", NULL));
  wait_for_page (assistant, "result");
  g_assert_false (loom_export_assistant_get_running (assistant));
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Export Cancelled"));
  g_assert_cmpuint (assert_only_packages (fixture->dest, NULL, NULL), <, n_sessions);
  save_page_screenshots (fixture, assistant, "export-cancelled");
  close_assistant (assistant);
}

static void
test_cancel (Fixture      *fixture,
             gconstpointer user_data)
{
  fixture_run (fixture, cancel_body);
}

/* The progress page, on an export of every session; then Escape, which cancels and closes
 * once the core has cleaned up. */
static void
progress_body (Fixture *fixture)
{
  LoomExportAssistant *assistant;
  GtkWidget           *widget;
  guint                n_sessions;

  n_sessions = g_list_model_get_n_items (
    G_LIST_MODEL (session_selection (GTK_WIDGET (fixture->window))));
  select_sessions (fixture, n_sessions);
  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);
  choose_destination (assistant, fixture->dest);
  /* Held once the first session's conversation is written. */
  loom_export_assistant_hold_export (assistant, "metadata");
  g_assert_true (gtk_widget_activate_action (widget, "assistant.export", NULL));
  g_assert_true (loom_ui_test_wait_until (shows_first_session, assistant));
  save_while_held (fixture, assistant, "export-progress");

  /* Escape closes; while the export runs (held again, at a later session), it is cancelled
   * first, and the window goes once the core has removed the package it was writing. */
  loom_export_assistant_hold_export (assistant, "metadata");
  g_assert_true (loom_export_assistant_get_running (assistant));
  close_assistant (assistant);
  g_assert_cmpuint (assert_only_packages (fixture->dest, NULL, NULL), <, n_sessions);
}

static void
test_progress_and_escape (Fixture      *fixture,
                          gconstpointer user_data)
{
  fixture_run (fixture, progress_body);
}

/* Escape pressed while the first package is being written: the export is cancelled, the
 * window stays until the core has cleaned up, then goes, and leaves no partial package. */
static void
escape_body (Fixture *fixture)
{
  LoomExportAssistant *assistant;
  GtkWidget           *widget;
  guint                n_sessions;

  n_sessions = g_list_model_get_n_items (
    G_LIST_MODEL (session_selection (GTK_WIDGET (fixture->window))));
  select_sessions (fixture, n_sessions);
  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);
  choose_destination (assistant, fixture->dest);

  /* No main loop iteration in between: the first package cannot have been finished. */
  g_assert_true (gtk_widget_activate_action (widget, "assistant.export", NULL));
  g_assert_true (loom_export_assistant_get_running (assistant));
  close_assistant (assistant);
  /* The first package may have been past the core's last look at the cancellable: then it is
   * whole. None after it was begun. */
  g_assert_cmpuint (assert_only_packages (fixture->dest, NULL, NULL), <=, 1);
}

static void
test_escape (Fixture      *fixture,
             gconstpointer user_data)
{
  fixture_run (fixture, escape_body);
}

/* The Redact Secrets preference is the assistant's default mode. */
static void
default_mode_body (Fixture *fixture)
{
  g_autoptr (GSettings) settings = app_settings ();
  LoomExportAssistant *assistant;

  select_sessions (fixture, 1);

  g_settings_set_boolean (settings, "redact-secrets-on-export", FALSE);
  assistant = open_assistant (fixture);
  g_assert_cmpint (loom_export_assistant_get_mode (assistant), ==, LOOM_EXPORT_MODE_FULL);
  close_assistant (assistant);

  g_settings_set_boolean (settings, "redact-secrets-on-export", TRUE);
  assistant = open_assistant (fixture);
  g_assert_cmpint (loom_export_assistant_get_mode (assistant), ==, LOOM_EXPORT_MODE_REDACTED);
  close_assistant (assistant);
}

static void
test_default_mode (Fixture      *fixture,
                   gconstpointer user_data)
{
  fixture_run (fixture, default_mode_body);
}

/* The destination page's one switch: the mode page has Encrypt's. */
static GtkWidget *
find_remember_switch (LoomExportAssistant *assistant)
{
  g_autoptr (GPtrArray)
    switches = loom_ui_test_find_visible (GTK_WIDGET (assistant), GTK_TYPE_SWITCH);

  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "destination");
  g_assert_cmpuint (switches->len, ==, 1);
  return switches->pdata[0];
}

/* "Remember this folder" writes the setting; the next assistant offers that folder. */
static void
remember_body (Fixture *fixture)
{
  g_autoptr (GSettings) settings = app_settings ();
  g_autofree char     *saved = NULL;
  LoomExportAssistant *assistant;
  GtkWidget           *remember;

  select_sessions (fixture, 1);
  assistant = open_assistant (fixture);
  activate (assistant, "assistant.next");
  activate (assistant, "assistant.next");
  remember = find_remember_switch (assistant);
  g_assert_nonnull (remember);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (remember)));
  loom_export_assistant_set_destination (assistant, fixture->dest);
  gtk_switch_set_active (GTK_SWITCH (remember), TRUE);
  activate (assistant, "assistant.export");
  wait_for_page (assistant, "result");
  saved = g_settings_get_string (settings, "export-folder");
  g_assert_cmpstr (saved, ==, fixture->dest);
  close_assistant (assistant);

  assistant = open_assistant (fixture);
  g_assert_cmpstr (loom_export_assistant_get_destination (assistant), ==, fixture->dest);
  activate (assistant, "assistant.next");
  activate (assistant, "assistant.next");
  remember = find_remember_switch (assistant);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (remember)));
  save_page_screenshots (fixture, assistant, "export-destination-remembered");
  close_assistant (assistant);
}

static void
test_remember_folder (Fixture      *fixture,
                      gconstpointer user_data)
{
  fixture_run (fixture, remember_body);
}

/* The manifest of the one package in @dest. */
static JsonObject *
read_only_manifest (const char *dest)
{
  g_autoptr (GDir) handle = g_dir_open (dest, 0, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *manifest = NULL;
  const char      *name;

  g_assert_nonnull (handle);
  name = g_dir_read_name (handle);
  g_assert_nonnull (name);
  g_assert_null (g_dir_read_name (handle));
  manifest = g_build_filename (dest, name, "manifest.json", NULL);
  json_parser_load_from_file (parser, manifest, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Compact, with the budget the person set: the package says both. */
static void
compact_body (Fixture *fixture)
{
  LoomExportAssistant *assistant;
  GtkWidget           *widget;
  GtkWidget           *spin;
  g_autoptr (JsonObject) manifest = NULL;

  select_sessions (fixture, 1);
  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);
  activate (assistant, "assistant.next");
  spin = loom_ui_test_find_any (widget, GTK_TYPE_SPIN_BUTTON);
  g_assert_nonnull (spin);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==,
                   LOOM_EXPORT_DEFAULT_BUDGET);
  g_assert_false (gtk_widget_is_sensitive (spin));
  loom_export_assistant_set_mode (assistant, LOOM_EXPORT_MODE_COMPACT);
  loom_ui_test_wait_for_frames (widget, 2);
  g_assert_true (gtk_widget_is_sensitive (spin));
  /* Shown as a count is, and read back with its separators or without. */
  gtk_editable_set_text (GTK_EDITABLE (spin), "24,000");
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==, 24000);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 16000);
  {
    g_autofree char *shown = g_strdup_printf ("%'d", 16000);

    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, shown);
  }
  save_page_screenshots (fixture, assistant, "export-mode-compact");
  activate (assistant, "assistant.next");
  loom_export_assistant_set_destination (assistant, fixture->dest);
  activate (assistant, "assistant.export");
  wait_for_page (assistant, "result");

  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Session Exported"));
  manifest = read_only_manifest (fixture->dest);
  g_assert_cmpstr (json_object_get_string_member (manifest, "mode"), ==, "compact");
  g_assert_cmpint (json_object_get_int_member (manifest, "budget"), ==, 16000);
  close_assistant (assistant);
}

/* A destination gone between choosing it and exporting: the result page says so with the
 * core's message, nothing is written, and Back offers the choices again. */
static void
failed_body (Fixture *fixture)
{
  g_autofree char     *gone = g_build_filename (fixture->dir, "gone", NULL);
  LoomExportAssistant *assistant;
  GtkWidget           *widget;

  g_assert_cmpint (g_mkdir (gone, 0700), ==, 0);
  select_sessions (fixture, 1);
  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);
  choose_destination (assistant, gone);
  g_assert_cmpint (g_rmdir (gone), ==, 0);
  activate (assistant, "assistant.export");
  wait_for_page (assistant, "result");

  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "The Session Could Not Be Exported"));
  g_assert_null (loom_ui_test_find_visible_button_labelled (widget, "_Open Folder"));
  g_assert_false (g_file_test (gone, G_FILE_TEST_EXISTS));
  save_page_screenshots (fixture, assistant, "export-result-failed");

  activate (assistant, "assistant.back");
  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "destination");
  loom_export_assistant_set_destination (assistant, fixture->dest);
  activate (assistant, "assistant.export");
  wait_for_page (assistant, "result");
  g_assert_cmpuint (assert_only_packages (fixture->dest, NULL, NULL), ==, 1);
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Session Exported"));
  close_assistant (assistant);
}

static void
test_failed (Fixture      *fixture,
             gconstpointer user_data)
{
  fixture_run (fixture, failed_body);
}

static void
test_compact (Fixture      *fixture,
              gconstpointer user_data)
{
  fixture_run (fixture, compact_body);
}

static gboolean
copies_artifacts (gpointer data)
{
  LoomExportAssistant *assistant = data;
  g_autoptr (GPtrArray) labels = NULL;

  if (!loom_export_assistant_get_running (assistant))
    return TRUE;
  labels = loom_ui_test_find_visible (GTK_WIDGET (assistant), GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_has_prefix (gtk_label_get_text (labels->pdata[i]), "Artifact "))
      return TRUE;
  return FALSE;
}

/* A session that touched files which are there: the progress shows each artifact, and the
 * result page counts the copies. */
static void
artifacts_body (Fixture *fixture)
{
  GtkWidget           *window = GTK_WIDGET (fixture->window);
  GtkSelectionModel   *selection = session_selection (window);
  LoomExportAssistant *assistant;
  GtkWidget           *widget;
  g_autofree char     *copied = g_strdup_printf ("%'u", N_ARTIFACTS);
  g_autoptr (GDir) packages = NULL;
  g_autofree char *package = NULL;
  g_autofree char *src = NULL;
  guint            n_files = 0;
  guint64          n_bytes = 0;
  gboolean         found = FALSE;

  for (guint i = 0; !found && i < g_list_model_get_n_items (G_LIST_MODEL (selection)); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_has_prefix (loom_session_get_title (session), CRAFTED_TITLE))
        found = gtk_selection_model_select_item (selection, i, TRUE);
    }
  g_assert_true (found);
  loom_ui_test_wait_for_writes (fixture->window);
  loom_ui_test_wait_for_frames (window, 2);

  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);
  loom_export_assistant_set_mode (assistant, LOOM_EXPORT_MODE_FULL);
  choose_destination (assistant, fixture->dest);
  loom_export_assistant_hold_export (assistant, "artifacts");
  g_assert_true (gtk_widget_activate_action (widget, "assistant.export", NULL));
  g_assert_true (loom_ui_test_wait_until (copies_artifacts, assistant));
  save_while_held (fixture, assistant, "export-progress-artifacts");

  wait_for_page (assistant, "result");
  g_assert_cmpuint (assert_only_packages (fixture->dest, NULL, NULL), ==, 1);
  packages = g_dir_open (fixture->dest, 0, NULL);
  package = g_build_filename (fixture->dest, g_dir_read_name (packages), NULL);
  src = g_build_filename (package, "artifacts", "files", "src", NULL);
  count_files (src, &n_files, &n_bytes);
  g_assert_cmpuint (n_files, ==, N_ARTIFACTS);
  g_assert_cmpuint (n_bytes, ==, (guint64)N_ARTIFACTS * ARTIFACT_BYTES);
  g_assert_true (shows_row (widget, "Artifacts", copied));
  close_assistant (assistant);
}

static void
test_artifacts (Fixture      *fixture,
                gconstpointer user_data)
{
  fixture_run (fixture, artifacts_body);
}

static void
on_clicked_cb (GtkButton *button,
               gboolean  *clicked)
{
  *clicked = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *)data;
}

/* Activates @button as Enter or a click does, and waits for it to report the click. */
static void
click_button (GtkWidget *button)
{
  gboolean clicked = FALSE;
  gulong   handler;

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  handler = g_signal_connect (button, "clicked", G_CALLBACK (on_clicked_cb), &clicked);
  gtk_widget_activate (button);
  g_assert_true (loom_ui_test_wait_until (is_true, &clicked));
  g_signal_handler_disconnect (button, handler);
}

static gboolean
menu_has_action (GMenuModel *menu,
                 const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      if (section != NULL && menu_has_action (section, action))
        return TRUE;
      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_str_equal (name, action))
        return TRUE;
    }
  return FALSE;
}

/* The ways to the assistant besides Ctrl+E: the header bar's button, the session menu, and the
 * button of a selection of several. */
static void
entry_points_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  g_autoptr (GPtrArray) menu_buttons = NULL;
  LoomExportAssistant *assistant;
  gboolean             in_menu = FALSE;

  select_sessions (fixture, 1);
  click_button (loom_ui_test_find_visible_button (window, "document-save-symbolic"));
  g_assert_true (loom_ui_test_wait_until (assistant_is_open, NULL));
  assistant = find_assistant ();
  loom_ui_test_wait_for_frames (GTK_WIDGET (assistant), 2);
  g_assert_nonnull (loom_ui_test_find_visible_label (GTK_WIDGET (assistant), "Export Session"));
  close_assistant (assistant);

  menu_buttons = loom_ui_test_find_visible (window, GTK_TYPE_MENU_BUTTON);
  for (guint i = 0; i < menu_buttons->len; i++)
    {
      GMenuModel *menu = gtk_menu_button_get_menu_model (menu_buttons->pdata[i]);

      if (g_strcmp0 (gtk_widget_get_tooltip_text (menu_buttons->pdata[i]), "Session Menu") == 0)
        in_menu = menu != NULL && menu_has_action (menu, "win.export-sessions");
    }
  g_assert_true (in_menu);

  select_sessions (fixture, 2);
  click_button (loom_ui_test_find_visible_button_labelled (window, "_Export…"));
  g_assert_true (loom_ui_test_wait_until (assistant_is_open, NULL));
  assistant = find_assistant ();
  loom_ui_test_wait_for_frames (GTK_WIDGET (assistant), 2);
  g_assert_nonnull (loom_ui_test_find_visible_label (GTK_WIDGET (assistant), "Export 2 Sessions"));
  close_assistant (assistant);
}

static void
test_entry_points (Fixture      *fixture,
                   gconstpointer user_data)
{
  fixture_run (fixture, entry_points_body);
}

/* ——— Encrypted ——— */

static gboolean
shows_label_containing (GtkWidget  *root,
                        const char *text)
{
  g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (root, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (strstr (gtk_label_get_text (labels->pdata[i]), text) != NULL)
      return TRUE;
  return FALSE;
}

static AdwMessageDialog *
find_recovery_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)) &&
          g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (window)),
                     "Your Recovery Key") == 0)
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

static gboolean
recovery_dialog_is_open (gpointer data)
{
  return find_recovery_dialog () != NULL;
}

static gboolean
recovery_dialog_is_closed (gpointer data)
{
  return find_recovery_dialog () == NULL;
}

/* The encrypt row is there on the mode page, insensitive and off but for Full and Full. */
static void
assert_encrypt_offered (LoomExportAssistant *assistant,
                        gboolean             offered)
{
  GtkWidget *widget = GTK_WIDGET (assistant);
  g_autoptr (GPtrArray) rows = loom_ui_test_find_visible (widget, ADW_TYPE_ACTION_ROW);
  AdwActionRow *row = NULL;

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (rows->pdata[i]), "_Encrypt with My Backup Key") ==
        0)
      row = rows->pdata[i];
  g_assert_nonnull (row);
  g_assert_cmpint (gtk_widget_is_sensitive (GTK_WIDGET (row)), ==, offered);
  g_assert_cmpint (loom_export_assistant_get_can_encrypt (assistant), ==, offered);
  if (!offered)
    {
      /* The row says why, and the switch cannot be turned on. */
      g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), "Full"));
      g_assert_false (loom_export_assistant_get_encrypt (assistant));
      loom_export_assistant_set_encrypt (assistant, TRUE);
      g_assert_false (loom_export_assistant_get_encrypt (assistant));
    }
}

/* Two sessions encrypted with the keyring's backup key: one <uuid>.loombackup each, nothing in
 * the clear, and a fresh store restores them as they were. Other modes and details cannot be
 * encrypted, and untick the switch. */
static void
encrypted_body (Fixture *fixture)
{
  LoomExportAssistant *assistant;
  GtkWidget           *widget;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) handle = NULL;
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (LoomStore) fresh = NULL;
  g_autoptr (LoomRestoreResult) restored = NULL;
  g_autofree char *fresh_path = g_build_filename (fixture->dir, "fresh.db", NULL);
  g_autofree char *key_before = NULL;
  g_autofree char *key_id = NULL;
  const char      *name;

  /* Whether this export makes the key, so that its recovery key must be shown once. */
  key_before = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);

  select_sessions (fixture, 2);
  assistant = open_assistant (fixture);
  widget = GTK_WIDGET (assistant);
  activate (assistant, "assistant.next");
  g_assert_cmpstr (loom_export_assistant_get_page (assistant), ==, "mode");

  /* Redacted by default (the preference), which is not a whole backup. */
  g_assert_cmpint (loom_export_assistant_get_mode (assistant), ==, LOOM_EXPORT_MODE_REDACTED);
  assert_encrypt_offered (assistant, FALSE);
  save_page_screenshots (fixture, assistant, "export-mode-encrypt-unavailable");
  loom_export_assistant_set_mode (assistant, LOOM_EXPORT_MODE_COMPACT);
  assert_encrypt_offered (assistant, FALSE);
  loom_export_assistant_set_mode (assistant, LOOM_EXPORT_MODE_FULL);
  loom_ui_test_wait_for_frames (widget, 2);
  assert_encrypt_offered (assistant, TRUE);
  loom_export_assistant_set_encrypt (assistant, TRUE);
  g_assert_true (loom_export_assistant_get_encrypt (assistant));
  loom_ui_test_wait_for_frames (widget, 2);
  save_page_screenshots (fixture, assistant, "export-mode-encrypt");

  /* Another mode, or another detail, unticks it. */
  loom_export_assistant_set_mode (assistant, LOOM_EXPORT_MODE_REDACTED);
  g_assert_false (loom_export_assistant_get_encrypt (assistant));
  loom_export_assistant_set_mode (assistant, LOOM_EXPORT_MODE_FULL);
  loom_export_assistant_set_encrypt (assistant, TRUE);
  loom_export_assistant_set_detail (assistant, LOOM_EXPORT_DETAIL_TOOLS);
  g_assert_false (loom_export_assistant_get_encrypt (assistant));
  g_assert_false (loom_export_assistant_get_can_encrypt (assistant));
  loom_export_assistant_set_detail (assistant, LOOM_EXPORT_DETAIL_FULL);
  loom_export_assistant_set_encrypt (assistant, TRUE);
  g_assert_true (loom_export_assistant_get_encrypt (assistant));

  activate (assistant, "assistant.next");
  loom_export_assistant_set_destination (assistant, fixture->dest);
  loom_ui_test_set_window_size (widget, WIDE_WIDTH, HEIGHT);
  activate (assistant, "assistant.export");

  /* A key made by this export shows its recovery key once. */
  if (key_before == NULL)
    {
      GtkWidget *button;

      g_assert_true (loom_ui_test_wait_until (recovery_dialog_is_open, NULL));
      button = loom_ui_test_find_visible_button_labelled (GTK_WIDGET (find_recovery_dialog ()),
                                                          "I Have Written It _Down");
      g_assert_nonnull (button);
      g_signal_emit_by_name (button, "clicked");
      g_assert_true (loom_ui_test_wait_until (recovery_dialog_is_closed, NULL));
    }
  wait_for_page (assistant, "result");
  g_assert_false (loom_export_assistant_get_running (assistant));
  g_assert_null (find_recovery_dialog ());

  key_id = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (key_id);
  if (key_before != NULL)
    g_assert_cmpstr (key_id, ==, key_before);

  /* On disk: two files named for their sessions, which show neither title nor text. */
  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  handle = g_dir_open (fixture->dest, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->dest, name, NULL);
      g_autofree char *uuid = NULL;
      g_autofree char *contents = NULL;
      g_autoptr (LoomSession) session = NULL;
      gsize length = 0;

      g_test_message ("encrypted: %s", name);
      g_assert_true (g_str_has_suffix (name, LOOM_BACKUP_SUFFIX));
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
      uuid = g_strndup (name, strlen (name) - strlen (LOOM_BACKUP_SUFFIX));
      g_assert_true (g_uuid_string_is_valid (uuid));
      session = loom_store_get_session (store, uuid, &error);
      g_assert_no_error (error);
      g_assert_nonnull (session);
      g_assert_true (g_file_get_contents (path, &contents, &length, &error));
      g_assert_no_error (error);
      g_assert_true (length > 8 && memcmp (contents, "LOOMBKUP", 8) == 0);
      g_assert_null (g_strstr_len (contents, length, loom_session_get_title (session)));
      g_assert_null (g_strstr_len (contents, length, "manifest.json"));
      g_ptr_array_add (paths, g_steal_pointer (&path));
    }
  g_assert_cmpuint (paths->len, ==, 2);

  /* The result page says they are encrypted, and with which key. */
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "2 Sessions Exported"));
  g_assert_true (shows_label_containing (widget, key_id));
  g_assert_true (shows_row (widget, "Encrypted Files", "2"));
  g_assert_true (shows_row (widget, "Backup Key", key_id));
  save_page_screenshots (fixture, assistant, "export-result-encrypted");

  /* A fresh store restores both, with the keyring's key, as they were. */
  g_ptr_array_add (paths, NULL);
  fresh = loom_store_open (fresh_path, &error);
  g_assert_no_error (error);
  restored = loom_restore (fresh, (const char *const *)paths->pdata, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (restored->failed->len, ==, 0);
  g_assert_cmpuint (restored->restored->len, ==, 2);
  for (guint i = 0; i < restored->restored->len; i++)
    {
      LoomRestoreItem *item = g_ptr_array_index (restored->restored, i);
      g_autoptr (LoomSession) original = loom_store_get_session (store, item->session_id, &error);
      g_autoptr (LoomSession) copy = NULL;

      g_assert_no_error (error);
      copy = loom_store_get_session (fresh, item->session_id, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (loom_session_get_title (copy), ==, loom_session_get_title (original));
      g_assert_cmpint (loom_session_get_message_count (copy), ==,
                       loom_session_get_message_count (original));
    }
  close_assistant (assistant);
}

static void
test_encrypted (Fixture      *fixture,
                gconstpointer user_data)
{
  fixture_run (fixture, encrypted_body);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GDK_DEBUG", "no-portals", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  loom_core_init ();
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

#define ADD(path, func) \
  g_test_add ("/app/export-assistant/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("entry-points", test_entry_points);
  ADD ("one-session", test_one_session);
  ADD ("several-sessions", test_several_sessions);
  ADD ("cancel", test_cancel);
  ADD ("progress-and-escape", test_progress_and_escape);
  ADD ("escape-while-exporting", test_escape);
  ADD ("default-mode", test_default_mode);
  ADD ("remember-folder", test_remember_folder);
  ADD ("compact", test_compact);
  ADD ("failed", test_failed);
  ADD ("encrypted", test_encrypted);
  g_test_add ("/app/export-assistant/artifacts", Fixture, GINT_TO_POINTER (TRUE), fixture_set_up,
              test_artifacts, fixture_tear_down);

#undef ADD

  return g_test_run ();
}
