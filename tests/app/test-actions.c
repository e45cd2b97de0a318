/* test-actions.c — organising sessions: folders, moves by drop and by action, rename, pin,
 * archive, trash, undo, permanent deletion.
 *
 * Runs the real application on a real X server (Xvfb, from the test harness) against a store
 * prepared with a few sessions and folders, drives the sidebar and the window's actions as a
 * user does (the drop handler, the dialogs and their responses, the undo toasts' buttons), and
 * checks each time that the store changed, and changed back on undo. Screenshots of the sidebar
 * and of every dialog go to tests/app/screenshots/ in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "loom-application.h"
#include "loom-core.h"
#include "loom-delete-dialog.h"
#include "loom-error.h"
#include "loom-folder-dialog.h"
#include "loom-move-dialog.h"
#include "loom-rename-dialog.h"
#include "loom-sidebar.h"
#include "loom-sidebar-row.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-window.h"
#include "loom-window-actions.h"

#include "loom-ui-test.h"

/* Generous: llvmpipe and a busy CI machine can be slow to draw the first frame. */
#define WAIT_TIMEOUT_USEC loom_test_guard_usec (LOOM_TEST_GUARD_USEC)

/* Every session was created on this day, so that titles and the rename dialog are stable. */
#define CREATED_DATE "2026-11-20"

/* ——— Waiting and looking (the common helpers are in loom-ui-test.c) ——— */

static gboolean
is_true (gpointer data)
{
  return *(gboolean *)data;
}

static void
on_clicked_cb (GtkButton *button,
               gboolean  *clicked)
{
  *clicked = TRUE;
}

/* Activates @button as Enter or a click does, and waits for the click: a button stays pressed
 * for a moment first. */
static void
click_button (GtkWidget *button)
{
  gboolean clicked = FALSE;
  gulong   handler;

  g_assert_nonnull (button);
  handler = g_signal_connect (button, "clicked", G_CALLBACK (on_clicked_cb), &clicked);
  gtk_widget_activate (button);
  g_assert_true (loom_ui_test_wait_until (is_true, &clicked));
  g_signal_handler_disconnect (button, handler);
}

static GtkWindow *
wait_for_toplevel (GType type)
{
  GtkWindow *window = NULL;
  gint64     deadline = g_get_monotonic_time () + WAIT_TIMEOUT_USEC;

  while (window == NULL && g_get_monotonic_time () < deadline)
    {
      window = loom_ui_test_find_toplevel (type);
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_nonnull (window);
  loom_ui_test_wait_for_frames (GTK_WIDGET (window), 2);
  return window;
}

/* ——— Fixture: a store with folders and sessions, and a running application ——— */

typedef struct _Fixture Fixture;
typedef void (*TestBody) (Fixture *fixture);

struct _Fixture
{
  char            *dir;
  char            *db_path;
  LoomApplication *app;
  LoomWindow      *window;
  TestBody         body;

  /* The prepared store's folders and sessions. */
  gint64 work_id;
  gint64 personal_id;
  char  *login;      /* in Work, pinned, 4 messages and 2 events */
  char  *settings;   /* in Work */
  char  *arm64;      /* no name yet: "Untitled session", a prompt to suggest one */
  char  *notes;      /* in Personal, archived */
  char  *experiment; /* in the trash */
  char  *review;     /* a title outside the convention; its agent file is gone */
};

static gint64
created_at (void)
{
  g_autoptr (GDateTime) local = g_date_time_new_local (2026, 11, 20, 10, 0, 0);

  return g_date_time_to_unix (local) * 1000;
}

static char *
add_session (Fixture    *fixture,
             LoomStore  *store,
             const char *title,
             const char *source,
             const char *prompt,
             guint       age_hours)
{
  g_autoptr (LoomSessionRecord) record = loom_session_record_new ();
  g_autoptr (GError) error = NULL;
  gint64 now = g_get_real_time () / 1000;

  record->title = g_strdup (title);
  record->source = g_strdup (source);
  record->source_session_id = g_uuid_string_random ();
  /* A file that exists, so that "Open Source Folder" has somewhere to go. */
  record->source_path = g_build_filename (fixture->dir, "agent", "session.jsonl", NULL);
  record->project_name = g_strdup ("intentloom-history");
  record->project_path = g_strdup ("/home/ada/src/intentloom-history");
  record->created_at = created_at () + age_hours * 60 * 1000;
  record->updated_at = now - age_hours * 3600 * 1000;
  g_assert_true (loom_store_insert_session (store, record, &error));
  g_assert_no_error (error);

  if (prompt != NULL)
    {
      g_assert_cmpint (
        loom_store_add_message (store, record->id, "user", prompt, record->created_at, &error), >,
        0);
      g_assert_cmpint (loom_store_add_message (store, record->id, "assistant", "Looking into it.",
                                               record->created_at + 1, &error),
                       >, 0);
      g_assert_no_error (error);
    }
  return g_strdup (record->uuid);
}

static void
prepare_store (Fixture *fixture)
{
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (LoomFolder) work = NULL;
  g_autoptr (LoomFolder) personal = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *agent_dir = g_build_filename (fixture->dir, "agent", NULL);
  g_autofree char *agent_file = g_build_filename (agent_dir, "session.jsonl", NULL);
  gint64           login_id;

  g_assert_cmpint (g_mkdir (agent_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (agent_file, "{}\n", -1, NULL));

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);

  work = loom_store_create_folder (store, "Work", &error);
  g_assert_no_error (error);
  personal = loom_store_create_folder (store, "Personal", &error);
  g_assert_no_error (error);
  fixture->work_id = loom_folder_get_id (work);
  fixture->personal_id = loom_folder_get_id (personal);

  fixture->login = add_session (fixture, store, "Fix the flaky login test - " CREATED_DATE,
                                "claude-code", "Please fix the flaky login test.", 1);
  fixture->settings = add_session (fixture, store,
                                   "Port the settings page to libadwaita - " CREATED_DATE, "codex",
                                   "port the settings page to libadwaita", 3);
  fixture->arm64 = add_session (fixture, store, "Untitled session - " CREATED_DATE, "gemini",
                                "Can you explain why the arm64 build fails? It started "
                                "yesterday.",
                                5);
  fixture->notes = add_session (fixture, store, "Draft the release notes - " CREATED_DATE, "codex",
                                "draft the release notes", 30);
  fixture->experiment = add_session (fixture, store, "Old experiment - " CREATED_DATE,
                                     "claude-code", "try something", 40);
  fixture->review = add_session (fixture, store, "Summarise the design review", "claude-code", NULL,
                                 7);

  g_assert_true (loom_store_move_session (store, fixture->login, fixture->work_id, &error));
  g_assert_true (loom_store_move_session (store, fixture->settings, fixture->work_id, &error));
  g_assert_true (loom_store_move_session (store, fixture->notes, fixture->personal_id, &error));
  g_assert_true (loom_store_set_pinned (store, fixture->login, TRUE, &error));
  g_assert_true (loom_store_set_archived (store, fixture->notes, TRUE, &error));
  g_assert_true (loom_store_set_trashed (store, fixture->experiment, TRUE, &error));
  g_assert_no_error (error);

  /* The login session has more to delete: two more messages and two events. */
  {
    g_autoptr (LoomSession) login = loom_store_get_session (store, fixture->login, &error);

    login_id = loom_session_get_id (login);
  }
  g_assert_cmpint (loom_store_add_message (store, login_id, "user", "and the logout test",
                                           created_at () + 10, &error),
                   >, 0);
  g_assert_cmpint (
    loom_store_add_message (store, login_id, "assistant", "Done.", created_at () + 11, &error), >,
    0);
  g_assert_cmpint (loom_store_add_event (store, login_id, "tool_call", "Bash",
                                         "{\"command\":\"make check\"}", created_at () + 12,
                                         &error),
                   >, 0);
  g_assert_cmpint (
    loom_store_add_event (store, login_id, "tool_result", "Bash", "ok", created_at () + 13, &error),
    >, 0);
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (GError) error = NULL;

  /* TMPDIR is inside the harness's throwaway folder, so this never reaches a real store. */
  fixture->dir = g_dir_make_tmp ("loom-test-actions-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);
  prepare_store (fixture);

  loom_ui_test_prepare_settings (1100, 720);
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
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->login, g_free);
  g_clear_pointer (&fixture->settings, g_free);
  g_clear_pointer (&fixture->arm64, g_free);
  g_clear_pointer (&fixture->notes, g_free);
  g_clear_pointer (&fixture->experiment, g_free);
  g_clear_pointer (&fixture->review, g_free);
}

static void
on_sessions_dropped_cb (LoomSidebar       *sidebar,
                        const char *const *uuids,
                        guint              target,
                        gint64             folder_id,
                        LoomWindow        *window)
{
  loom_window_move_sessions (window, uuids, target, folder_id);
}

static LoomSidebar *
get_sidebar (Fixture *fixture)
{
  return LOOM_SIDEBAR (loom_ui_test_find_any (GTK_WIDGET (fixture->window), LOOM_TYPE_SIDEBAR));
}

static gboolean
run_body_cb (gpointer user_data)
{
  Fixture     *fixture = user_data;
  GtkWidget   *window = GTK_WIDGET (fixture->window);
  LoomSidebar *sidebar = get_sidebar (fixture);
  guint        dropped = g_signal_lookup ("sessions-dropped", LOOM_TYPE_SIDEBAR);

  /* The window connects the drops to the actions; a window that does not yet gets the same
   * connection here, as the contract between them says. */
  if (g_signal_handler_find (sidebar, G_SIGNAL_MATCH_ID, dropped, 0, NULL, NULL, NULL) == 0)
    g_signal_connect_object (sidebar, "sessions-dropped", G_CALLBACK (on_sessions_dropped_cb),
                             fixture->window, 0);

  loom_ui_test_wait_for_frames (window, 2);
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

/* ——— Reading the store and the window ——— */

static LoomSession *
get_session (Fixture    *fixture,
             const char *uuid)
{
  g_autoptr (GError) error = NULL;
  LoomSession *session;

  session = loom_store_get_session (loom_window_get_store (fixture->window), uuid, &error);
  g_assert_no_error (error);
  return session;
}

/* Where a session is, as "folder/archived/trashed", so that a whole state compares at once. */
static char *
place_of (Fixture    *fixture,
          const char *uuid)
{
  g_autoptr (LoomSession) session = get_session (fixture, uuid);

  return g_strdup_printf ("%" G_GINT64_FORMAT "/%d/%d", loom_session_get_folder_id (session),
                          loom_session_get_archived (session), loom_session_get_trashed (session));
}

static char *
place (gint64   folder_id,
       gboolean archived,
       gboolean trashed)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT "/%d/%d", folder_id, archived, trashed);
}

static void
assert_place (Fixture    *fixture,
              const char *uuid,
              gint64      folder_id,
              gboolean    archived,
              gboolean    trashed)
{
  g_autofree char *actual = place_of (fixture, uuid);
  g_autofree char *expected = place (folder_id, archived, trashed);

  g_assert_cmpstr (actual, ==, expected);
}

static guint
count_in (Fixture       *fixture,
          LoomCollection collection,
          gint64         folder_id)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  guint n = 0;

  query.collection = collection;
  query.folder_id = folder_id;
  g_assert_true (
    loom_store_count_sessions (loom_window_get_store (fixture->window), &query, &n, &error));
  g_assert_no_error (error);
  return n;
}

/* The folders as the store orders them, as "Name,Name". */
static char *
store_folders (Fixture *fixture)
{
  g_autoptr (GListModel) folders = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) names = g_string_new (NULL);

  folders = loom_store_list_folders (loom_window_get_store (fixture->window), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (folders); i++)
    {
      g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);

      g_string_append_printf (names, "%s%s", i > 0 ? "," : "", loom_folder_get_name (folder));
    }
  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* The folder rows as the sidebar shows them, as "Name:count,Name:count". */
static char *
sidebar_folders (Fixture *fixture)
{
  GListModel *folders = loom_sidebar_get_folders (get_sidebar (fixture));
  g_autoptr (GString) names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (folders); i++)
    {
      g_autoptr (LoomSidebarItem) item = g_list_model_get_item (folders, i);
      GtkWidget *row;

      /* What the row shows, not only what its item says. */
      row = loom_sidebar_get_folder_row (get_sidebar (fixture),
                                         loom_sidebar_item_get_folder_id (item));
      g_assert_nonnull (row);
      g_assert_nonnull (loom_ui_test_find_visible_label (row, loom_sidebar_item_get_title (item)));
      g_string_append_printf (names, "%s%s:%u", i > 0 ? "," : "",
                              loom_sidebar_item_get_title (item),
                              loom_sidebar_item_get_count (item));
    }
  return g_string_free (g_steal_pointer (&names), FALSE);
}

static gint64
folder_id_named (Fixture    *fixture,
                 const char *name)
{
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;

  folder = loom_store_find_folder (loom_window_get_store (fixture->window), name, &error);
  g_assert_no_error (error);
  return loom_folder_get_id (folder);
}

/* The session list's selection model: the list view whose items are sessions. */
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

/* Shows @collection and selects the session with @uuid alone in the list, as a click does. */
static void
select_session (Fixture       *fixture,
                LoomCollection collection,
                const char    *uuid)
{
  GtkWidget         *window = GTK_WIDGET (fixture->window);
  GtkSelectionModel *selection;
  guint              n_items;

  loom_sidebar_select_collection (get_sidebar (fixture), collection);
  loom_ui_test_wait_for_frames (window, 2);

  selection = session_selection (window);
  n_items = g_list_model_get_n_items (G_LIST_MODEL (selection));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (loom_session_get_uuid (session), uuid))
        {
          g_assert_true (gtk_selection_model_select_item (selection, i, TRUE));
          /* The window follows its selection; until it refreshes the actions itself, so does
           * the test. */
          loom_window_actions_update (fixture->window);
          loom_ui_test_wait_for_frames (window, 2);
          return;
        }
    }
  g_error ("Session %s is not listed", uuid);
}

/* Adds the session with @uuid to the selection, as Ctrl+click does. */
static void
add_to_selection (Fixture    *fixture,
                  const char *uuid)
{
  GtkWidget         *window = GTK_WIDGET (fixture->window);
  GtkSelectionModel *selection = session_selection (window);
  guint              n_items = g_list_model_get_n_items (G_LIST_MODEL (selection));

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (loom_session_get_uuid (session), uuid))
        {
          gtk_selection_model_select_item (selection, i, FALSE);
          loom_window_actions_update (fixture->window);
          loom_ui_test_wait_for_frames (window, 2);
          return;
        }
    }
  g_error ("Session %s is not listed", uuid);
}

/* ——— Toasts and dialogs ——— */

typedef struct
{
  GtkWidget  *root;
  const char *text;
} LabelWait;

static gboolean
shows_label (gpointer data)
{
  LabelWait *wait = data;

  return loom_ui_test_find_visible_label (wait->root, wait->text) != NULL;
}

static void
wait_for_label (GtkWidget  *root,
                const char *text)
{
  LabelWait wait = { root, text };

  if (!loom_ui_test_wait_until (shows_label, &wait))
    g_error ("“%s” was not shown", text);
}

static gboolean
shows_undo (gpointer data)
{
  return loom_ui_test_find_visible_button_labelled (data, "_Undo") != NULL;
}

/* Waits for the toast saying @title and presses its Undo button. */
static void
undo_from_toast (Fixture    *fixture,
                 const char *title)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);

  wait_for_label (window, title);
  g_assert_true (loom_ui_test_wait_until (shows_undo, window));
  click_button (loom_ui_test_find_visible_button_labelled (window, "_Undo"));
  loom_ui_test_wait_for_writes (fixture->window);
  loom_ui_test_wait_for_frames (window, 2);
}

/* Whether one toast is on show, none fading out. */
static gboolean
shows_one_undo_button (gpointer data)
{
  g_autoptr (GPtrArray) buttons = loom_ui_test_find_visible (data, GTK_TYPE_BUTTON);
  guint undo_buttons = 0;

  for (guint i = 0; i < buttons->len; i++)
    undo_buttons += g_strcmp0 (gtk_button_get_label (buttons->pdata[i]), "_Undo") == 0;
  return undo_buttons == 1;
}

/* Answers @dialog with @response as its button does, and waits for it to go and for what the
 * window it belongs to writes on that answer to land. */
static void
respond (AdwMessageDialog *dialog,
         const char       *response)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (dialog));

  g_assert_true (adw_message_dialog_get_response_enabled (dialog, response));
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  adw_message_dialog_response (dialog, response);
  /* libadwaita 1.2 leaves closing to the button; the dialog's close response is "cancel". */
  if (dialog != NULL)
    gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &dialog));
  if (LOOM_IS_WINDOW (parent))
    loom_ui_test_wait_for_writes (LOOM_WINDOW (parent));
}

/* The GtkDropTarget of a sidebar row. */
static GtkDropTarget *
drop_target_of (GtkWidget *row)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (row);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  return NULL;
}

/* Drops @uuids on @row, as the end of a drag from the session list does. */
static void
drop_on (Fixture           *fixture,
         GtkWidget         *row,
         const char *const *uuids)
{
  GtkDropTarget *target = drop_target_of (row);
  g_auto (GValue) value = G_VALUE_INIT;
  gboolean handled = FALSE;

  g_assert_nonnull (target);
  g_assert_true (g_type_is_a (G_TYPE_STRV, gtk_drop_target_get_gtypes (target, NULL)[0]));
  g_value_init (&value, G_TYPE_STRV);
  g_value_set_boxed (&value, uuids);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &handled);
  g_assert_true (handled);
  loom_ui_test_wait_for_writes (fixture->window);
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 2);
}

/* ——— Folders ——— */

static LoomFolderDialog *
open_folder_dialog (Fixture    *fixture,
                    const char *action,
                    gint64      folder_id)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);

  if (folder_id > 0)
    g_assert_true (gtk_widget_activate_action (window, action, "x", folder_id));
  else
    g_assert_true (gtk_widget_activate_action (window, action, NULL));
  return LOOM_FOLDER_DIALOG (wait_for_toplevel (LOOM_TYPE_FOLDER_DIALOG));
}

static void
folders_body (Fixture *fixture)
{
  GtkWidget        *window = GTK_WIDGET (fixture->window);
  LoomSidebar      *sidebar = get_sidebar (fixture);
  LoomFolderDialog *folder_dialog;
  AdwMessageDialog *dialog;
  GtkWidget        *row;
  GtkPopover       *menu;
  g_autofree char  *folders = NULL;
  gint64            research_id;

  /* The folders, in the store's order, each with the number of sessions it lists: the archived
   * release notes are in Archived, not in Personal's list. */
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "Work:2,Personal:0");
  g_clear_pointer (&folders, g_free);
  g_assert_nonnull (loom_ui_test_find_visible_label (window, "Folders"));
  loom_ui_test_save_screenshots (fixture->app, window, "actions-sidebar-folders");

  /* New Folder: named in a dialog; a name already taken (in any case) cannot be used. */
  folder_dialog = open_folder_dialog (fixture, "folder.new", 0);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (folder_dialog)) == GTK_WINDOW (window));
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (folder_dialog)), ==,
                   "New Folder");
  g_assert_false (
    adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (folder_dialog), "save"));
  loom_folder_dialog_set_name (folder_dialog, "work");
  g_assert_false (
    adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (folder_dialog), "save"));
  wait_for_label (GTK_WIDGET (folder_dialog), "A folder named “work” already exists");
  loom_ui_test_save_screenshot (GTK_WIDGET (folder_dialog), "actions-folder-name-taken");
  loom_folder_dialog_set_name (folder_dialog, "Reading");
  loom_ui_test_save_screenshot (GTK_WIDGET (folder_dialog), "actions-folder-new");
  respond (ADW_MESSAGE_DIALOG (folder_dialog), "save");
  folders = store_folders (fixture);
  g_assert_cmpstr (folders, ==, "Work,Personal,Reading");
  g_clear_pointer (&folders, g_free);
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "Work:2,Personal:0,Reading:0");
  g_clear_pointer (&folders, g_free);

  /* Rename, from the folder's own menu. */
  research_id = folder_id_named (fixture, "Reading");
  row = loom_sidebar_get_folder_row (sidebar, research_id);
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_true (loom_ui_test_press_key (row, GDK_KEY_Menu, 0));
  menu = loom_sidebar_row_get_menu (LOOM_SIDEBAR_ROW (row));
  g_assert_nonnull (menu);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, menu));
  loom_ui_test_save_screenshot (GTK_WIDGET (menu), "actions-folder-menu");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.rename", NULL));
  folder_dialog = LOOM_FOLDER_DIALOG (wait_for_toplevel (LOOM_TYPE_FOLDER_DIALOG));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (folder_dialog)), ==,
                   "Rename Folder");
  g_assert_cmpstr (loom_folder_dialog_get_name (folder_dialog), ==, "Reading");
  loom_folder_dialog_set_name (folder_dialog, "  Research ");
  respond (ADW_MESSAGE_DIALOG (folder_dialog), "save");
  folders = store_folders (fixture);
  g_assert_cmpstr (folders, ==, "Work,Personal,Research");
  g_clear_pointer (&folders, g_free);

  /* Cancelling changes nothing. */
  folder_dialog = open_folder_dialog (fixture, "folder.rename", research_id);
  loom_folder_dialog_set_name (folder_dialog, "Never");
  respond (ADW_MESSAGE_DIALOG (folder_dialog), "cancel");
  folders = store_folders (fixture);
  g_assert_cmpstr (folders, ==, "Work,Personal,Research");
  g_clear_pointer (&folders, g_free);

  /* Reordering: up, down, and nothing past either end. The first folder's menu offers no Move
   * Up. */
  g_assert_true (gtk_widget_activate_action (window, "folder.move-up", "x", research_id));
  loom_ui_test_wait_for_writes (fixture->window);
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "Work:2,Research:0,Personal:0");
  g_clear_pointer (&folders, g_free);
  g_assert_true (gtk_widget_has_focus (loom_sidebar_get_folder_row (sidebar, research_id)));
  g_assert_true (gtk_widget_activate_action (window, "folder.move-down", "x", fixture->work_id));
  loom_ui_test_wait_for_writes (fixture->window);
  g_assert_true (gtk_widget_activate_action (window, "folder.move-up", "x", research_id));
  loom_ui_test_wait_for_writes (fixture->window);
  folders = store_folders (fixture);
  g_assert_cmpstr (folders, ==, "Research,Work,Personal");
  g_clear_pointer (&folders, g_free);
  g_assert_true (gtk_widget_activate_action (window, "folder.move-up", "x", research_id));
  loom_ui_test_wait_for_writes (fixture->window);
  g_assert_true (
    gtk_widget_activate_action (window, "folder.move-down", "x", fixture->personal_id));
  loom_ui_test_wait_for_writes (fixture->window);
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "Research:0,Work:2,Personal:0");
  g_clear_pointer (&folders, g_free);

  /* The row was made anew in its new place: let it be laid out before pointing a menu at it. */
  row = loom_sidebar_get_folder_row (sidebar, research_id);
  loom_ui_test_wait_for_frames (window, 2);
  loom_sidebar_row_show_menu (LOOM_SIDEBAR_ROW (row));
  menu = loom_sidebar_row_get_menu (LOOM_SIDEBAR_ROW (row));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, menu));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.move-up", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  folders = store_folders (fixture);
  g_assert_cmpstr (folders, ==, "Research,Work,Personal");
  g_clear_pointer (&folders, g_free);
  gtk_popover_popdown (menu);

  /* The keyboard goes from the collections to the folders and back, selecting as it goes. */
  loom_sidebar_select_collection (sidebar, LOOM_COLLECTION_TRASH);
  row = loom_sidebar_get_collection_row (sidebar, LOOM_COLLECTION_TRASH);
  gtk_widget_grab_focus (row);
  g_assert_true (loom_ui_test_press_key (gtk_widget_get_parent (row), GDK_KEY_Down, 0));
  g_assert_cmpint (loom_sidebar_item_get_folder_id (loom_sidebar_get_selected_item (sidebar)), ==,
                   research_id);
  g_assert_true (gtk_widget_has_focus (loom_sidebar_get_folder_row (sidebar, research_id)));
  g_assert_null (gtk_list_box_get_selected_row (GTK_LIST_BOX (gtk_widget_get_parent (row))));
  g_assert_true (loom_ui_test_press_key (
    gtk_widget_get_parent (loom_sidebar_get_folder_row (sidebar, research_id)), GDK_KEY_Up, 0));
  g_assert_cmpint (loom_sidebar_item_get_collection (loom_sidebar_get_selected_item (sidebar)), ==,
                   LOOM_COLLECTION_TRASH);

  /* A folder is shown as All narrowed to it. */
  g_assert_true (loom_sidebar_select_folder (sidebar, fixture->work_id));
  g_assert_cmpint (loom_sidebar_item_get_collection (loom_sidebar_get_selected_item (sidebar)), ==,
                   LOOM_COLLECTION_ALL);
  g_assert_cmpint (loom_sidebar_item_get_folder_id (loom_sidebar_get_selected_item (sidebar)), ==,
                   fixture->work_id);
  loom_ui_test_wait_for_frames (window, 2);
  loom_ui_test_save_screenshots (fixture->app, window, "actions-sidebar-folder-selected");

  /* Deleting a folder says what becomes of its sessions, and keeps them. The release notes,
   * archived, count too: they leave the folder as well. */
  g_assert_true (gtk_widget_activate_action (window, "folder.delete", "x", fixture->personal_id));
  dialog = ADW_MESSAGE_DIALOG (wait_for_toplevel (ADW_TYPE_MESSAGE_DIALOG));
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Delete Folder?");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==,
                   "The 1 session in “Personal” is kept and moves out of the folder.");
  respond (dialog, "cancel");
  g_assert_cmpint (folder_id_named (fixture, "Personal"), ==, fixture->personal_id);

  g_assert_true (gtk_widget_activate_action (window, "folder.delete", "x", fixture->work_id));
  dialog = ADW_MESSAGE_DIALOG (wait_for_toplevel (ADW_TYPE_MESSAGE_DIALOG));
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==,
                   "The 2 sessions in “Work” are kept and move out of the folder.");
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "delete"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  loom_ui_test_save_screenshots (fixture->app, GTK_WIDGET (dialog), "actions-folder-delete");
  respond (dialog, "delete");
  folders = store_folders (fixture);
  g_assert_cmpstr (folders, ==, "Research,Personal");
  g_clear_pointer (&folders, g_free);
  assert_place (fixture, fixture->login, 0, FALSE, FALSE);
  assert_place (fixture, fixture->settings, 0, FALSE, FALSE);
  /* The selected folder went: the sidebar shows All Sessions instead. */
  g_assert_cmpint (loom_sidebar_item_get_folder_id (loom_sidebar_get_selected_item (sidebar)), ==,
                   0);
  g_assert_cmpint (loom_sidebar_item_get_collection (loom_sidebar_get_selected_item (sidebar)), ==,
                   LOOM_COLLECTION_ALL);
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "Research:0,Personal:0");
  g_clear_pointer (&folders, g_free);

  /* An empty folder says so. */
  g_assert_true (gtk_widget_activate_action (window, "folder.delete", "x", research_id));
  dialog = ADW_MESSAGE_DIALOG (wait_for_toplevel (ADW_TYPE_MESSAGE_DIALOG));
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==,
                   "“Research” is empty. No session is affected.");
  respond (dialog, "delete");
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "Personal:0");
  g_clear_pointer (&folders, g_free);

  /* Without folders, the sidebar says what they are for. */
  g_assert_true (gtk_widget_activate_action (window, "folder.delete", "x", fixture->personal_id));
  respond (ADW_MESSAGE_DIALOG (wait_for_toplevel (ADW_TYPE_MESSAGE_DIALOG)), "delete");
  assert_place (fixture, fixture->notes, 0, TRUE, FALSE);
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "");
  wait_for_label (window, "File sessions in folders of your own: create one, then drag sessions "
                          "onto it");
  loom_ui_test_save_screenshots (fixture->app, window, "actions-sidebar-no-folders");

  /* The narrow, folded window shows the sidebar alone. */
  loom_ui_test_set_window_size (window, 400, 720);
  loom_ui_test_save_screenshots (fixture->app, window, "actions-sidebar-narrow");
  loom_ui_test_set_window_size (window, 1100, 720);
}

static void
test_folders (Fixture      *fixture,
              gconstpointer user_data)
{
  fixture_run (fixture, folders_body);
}

/* ——— Moving ——— */

static void
move_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomSidebar     *sidebar = get_sidebar (fixture);
  const char      *both[] = { fixture->login, fixture->arm64, NULL };
  const char      *notes[] = { fixture->notes, NULL };
  GtkWidget       *personal_row, *archived_row, *trash_row, *all_row;
  g_autofree char *folders = NULL;
  LoomMoveDialog  *move_dialog;
  g_autoptr (GPtrArray) rows = NULL;

  personal_row = loom_sidebar_get_folder_row (sidebar, fixture->personal_id);
  archived_row = loom_sidebar_get_collection_row (sidebar, LOOM_COLLECTION_ARCHIVED);
  trash_row = loom_sidebar_get_collection_row (sidebar, LOOM_COLLECTION_TRASH);
  all_row = loom_sidebar_get_collection_row (sidebar, LOOM_COLLECTION_ALL);

  /* Only the rows that mean something as a place take drops. */
  g_assert_null (
    drop_target_of (loom_sidebar_get_collection_row (sidebar, LOOM_COLLECTION_RECENT)));
  g_assert_null (
    drop_target_of (loom_sidebar_get_collection_row (sidebar, LOOM_COLLECTION_PINNED)));

  /* A row under a drag says that it takes the drop. */
  gtk_widget_set_state_flags (personal_row, GTK_STATE_FLAG_DROP_ACTIVE, FALSE);
  loom_ui_test_save_screenshots (fixture->app, window, "actions-sidebar-drop");
  gtk_widget_unset_state_flags (personal_row, GTK_STATE_FLAG_DROP_ACTIVE);

  /* Two sessions dropped on a folder: filed there, counted there; undo puts each back. */
  drop_on (fixture, personal_row, both);
  assert_place (fixture, fixture->login, fixture->personal_id, FALSE, FALSE);
  assert_place (fixture, fixture->arm64, fixture->personal_id, FALSE, FALSE);
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "Work:1,Personal:2");
  g_clear_pointer (&folders, g_free);
  wait_for_label (window, "2 sessions moved to “Personal”");
  loom_ui_test_save_screenshot (window, "actions-undo-toast");
  undo_from_toast (fixture, "2 sessions moved to “Personal”");
  assert_place (fixture, fixture->login, fixture->work_id, FALSE, FALSE);
  assert_place (fixture, fixture->arm64, 0, FALSE, FALSE);
  folders = sidebar_folders (fixture);
  g_assert_cmpstr (folders, ==, "Work:2,Personal:0");
  g_clear_pointer (&folders, g_free);

  /* On Archived, on Trash: the folder stays for a later restore. */
  drop_on (fixture, archived_row, both);
  assert_place (fixture, fixture->login, fixture->work_id, TRUE, FALSE);
  assert_place (fixture, fixture->arm64, 0, TRUE, FALSE);
  g_assert_cmpuint (count_in (fixture, LOOM_COLLECTION_ARCHIVED, 0), ==, 3);
  undo_from_toast (fixture, "2 sessions archived");
  assert_place (fixture, fixture->login, fixture->work_id, FALSE, FALSE);
  assert_place (fixture, fixture->arm64, 0, FALSE, FALSE);

  drop_on (fixture, trash_row, both);
  assert_place (fixture, fixture->login, fixture->work_id, FALSE, TRUE);
  assert_place (fixture, fixture->arm64, 0, FALSE, TRUE);
  undo_from_toast (fixture, "2 sessions moved to the trash");
  assert_place (fixture, fixture->login, fixture->work_id, FALSE, FALSE);
  assert_place (fixture, fixture->arm64, 0, FALSE, FALSE);

  /* On All Sessions: out of the folder and the archive, in the plain state. */
  drop_on (fixture, all_row, notes);
  assert_place (fixture, fixture->notes, 0, FALSE, FALSE);
  undo_from_toast (fixture, "“Draft the release notes” moved to All Sessions");
  assert_place (fixture, fixture->notes, fixture->personal_id, TRUE, FALSE);

  /* By action, on the selected session. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->review);
  g_assert_true (
    gtk_widget_activate_action (window, "session.move-to-folder", "x", fixture->personal_id));
  loom_ui_test_wait_for_writes (fixture->window);
  assert_place (fixture, fixture->review, fixture->personal_id, FALSE, FALSE);
  undo_from_toast (fixture, "“Summarise the design review” moved to “Personal”");
  assert_place (fixture, fixture->review, 0, FALSE, FALSE);

  /* "Move to…": every place, the present one marked, chosen from the list as Enter does. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->login);
  g_assert_true (gtk_widget_activate_action (window, "session.move-to", NULL));
  move_dialog = LOOM_MOVE_DIALOG (wait_for_toplevel (LOOM_TYPE_MOVE_DIALOG));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (move_dialog)) == GTK_WINDOW (window));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (move_dialog)));
  rows = loom_ui_test_find_visible (GTK_WIDGET (move_dialog), ADW_TYPE_ACTION_ROW);
  g_assert_cmpuint (rows->len, ==, 5);
  g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[0]), ==, "No Folder");
  g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[1]), ==, "Work");
  g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[2]), ==, "Personal");
  g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[3]), ==, "Archived");
  g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[4]), ==, "Trash");
  g_assert_nonnull (loom_ui_test_find_any (rows->pdata[1], GTK_TYPE_IMAGE));
  g_assert_true (gtk_widget_has_focus (rows->pdata[0]));
  loom_ui_test_save_screenshots (fixture->app, GTK_WIDGET (move_dialog), "actions-move-dialog");
  g_object_add_weak_pointer (G_OBJECT (move_dialog), (gpointer *)&move_dialog);
  gtk_widget_activate (rows->pdata[2]);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &move_dialog));
  loom_ui_test_wait_for_writes (fixture->window);
  assert_place (fixture, fixture->login, fixture->personal_id, FALSE, FALSE);
  undo_from_toast (fixture, "“Fix the flaky login test” moved to “Personal”");
  assert_place (fixture, fixture->login, fixture->work_id, FALSE, FALSE);

  /* Escape leaves everything as it was. */
  g_assert_true (gtk_widget_activate_action (window, "session.move-to", NULL));
  move_dialog = LOOM_MOVE_DIALOG (wait_for_toplevel (LOOM_TYPE_MOVE_DIALOG));
  g_object_add_weak_pointer (G_OBJECT (move_dialog), (gpointer *)&move_dialog);
  g_assert_true (loom_ui_test_press_key (GTK_WIDGET (move_dialog), GDK_KEY_Escape, 0));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &move_dialog));
  assert_place (fixture, fixture->login, fixture->work_id, FALSE, FALSE);

  /* A newer action's toast replaces the older one: Undo is always about the last action. */
  drop_on (fixture, trash_row, (const char *[]){ fixture->settings, NULL });
  drop_on (fixture, archived_row, (const char *[]){ fixture->review, NULL });
  undo_from_toast (fixture, "“Summarise the design review” archived");
  assert_place (fixture, fixture->review, 0, FALSE, FALSE);
  assert_place (fixture, fixture->settings, fixture->work_id, FALSE, TRUE);
}

/* Actions a moment apart, with animations on as a person has them: each one's undo toast
 * takes the place of the one before, however far that one has slid in (dismissing one that
 * slid in for less than 200 ms crashed libadwaita 1.2), and Undo reverts the last. */
static void
quick_succession_body (Fixture *fixture)
{
  GtkWidget   *window = GTK_WIDGET (fixture->window);
  LoomSidebar *sidebar = get_sidebar (fixture);
  GtkWidget   *personal_row = loom_sidebar_get_folder_row (sidebar, fixture->personal_id);
  GtkWidget   *work_row = loom_sidebar_get_folder_row (sidebar, fixture->work_id);
  const char  *review[] = { fixture->review, NULL };

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", TRUE, NULL);
  for (guint frames = 0; frames < 16; frames++)
    {
      drop_on (fixture, personal_row, review);
      loom_ui_test_wait_for_frames (window, frames);
      drop_on (fixture, work_row, review);
      loom_ui_test_wait_for_frames (window, frames % 5);
    }
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  assert_place (fixture, fixture->review, fixture->work_id, FALSE, FALSE);

  /* The older toasts have faded out; the one left offers to undo the last move. */
  g_assert_true (loom_ui_test_wait_until (shows_one_undo_button, window));
  undo_from_toast (fixture, "“Summarise the design review” moved to “Work”");
  assert_place (fixture, fixture->review, fixture->personal_id, FALSE, FALSE);
}

/* Waits @msec on the main loop: animations run on the frame clock, not on frames asked for. */
static gboolean
time_passed (gpointer data)
{
  return g_get_monotonic_time () >= *(gint64 *)data;
}

static void
wait_msec (guint msec)
{
  gint64 until = g_get_monotonic_time () + msec * 1000;

  g_assert_true (loom_ui_test_wait_until (time_passed, &until));
}

/* The Undo button of the toast on show, not of one fading out, drawn yet or not. */
static GtkWidget *
current_undo_button (Fixture *fixture)
{
  GtkWidget *overlay = loom_ui_test_find_any (GTK_WIDGET (fixture->window), ADW_TYPE_TOAST_OVERLAY);

  for (GtkWidget *child = gtk_widget_get_first_child (overlay); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      g_autoptr (GPtrArray) buttons = g_ptr_array_new ();

      if (!g_str_equal (G_OBJECT_TYPE_NAME (child), "AdwToastWidget") ||
          !gtk_widget_get_can_target (child))
        continue;
      for (GtkWidget *w = gtk_widget_get_first_child (child); w != NULL;
           w = gtk_widget_get_next_sibling (w))
        {
          GtkWidget *button = loom_ui_test_find_any (w, GTK_TYPE_BUTTON);

          if (button != NULL &&
              g_strcmp0 (gtk_button_get_label (GTK_BUTTON (button)), "_Undo") == 0)
            return button;
        }
    }
  return NULL;
}

static gboolean
shows_current_undo (gpointer data)
{
  return current_undo_button (data) != NULL;
}

/* Toasts answered soon after they show, with animations on. libadwaita 1.2 crashed when a toast
 * shown while another faded out (it then slides in for 500 ms) was dismissed in its first
 * 200 ms, by Escape or by the newer toast replacing it; and it aborted when an undo toast sent
 * the toast on show back to its queue and went (Undo pressed) before that one had faded out.
 * Toasts now come one at a time, each once the one before is gone (loom-toast-queue.h).
 * libadwaita 1.2 also crashed when a toast was dismissed as it appeared, its fade then ending in
 * the frame that ended its slide-in: with a frame between the plain toast and the undoable
 * action, the undo toast shows on its own and its Undo is pressed within its first frames. The
 * overlay now hears of a dismissal only once the toast has slid in. */
static void
dismiss_sliding_in_body (Fixture *fixture)
{
  GtkWidget   *window = GTK_WIDGET (fixture->window);
  GtkWidget   *overlay = loom_ui_test_find_any (window, ADW_TYPE_TOAST_OVERLAY);
  LoomSidebar *sidebar = get_sidebar (fixture);
  GtkWidget   *personal_row = loom_sidebar_get_folder_row (sidebar, fixture->personal_id);
  GtkWidget   *work_row = loom_sidebar_get_folder_row (sidebar, fixture->work_id);
  const char  *review[] = { fixture->review, NULL };

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", TRUE, NULL);

  /* Two moves a second apart: the second one's toast replaces the first, and Escape takes it
   * away. */
  for (guint i = 0; i < 3; i++)
    {
      drop_on (fixture, personal_row, review);
      wait_msec (1100);
      drop_on (fixture, work_row, review);
      g_assert_true (loom_ui_test_wait_until (shows_current_undo, fixture));
      wait_msec (400);
      g_assert_true (loom_ui_test_press_key (overlay, GDK_KEY_Escape, 0));
      wait_msec (700);
      g_assert_false (shows_current_undo (fixture));
    }
  assert_place (fixture, fixture->review, fixture->work_id, FALSE, FALSE);

  /* A plain toast, an undoable action a frame later, and its Undo as soon as it shows: the plain
   * toast made way for it. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->settings);
  for (guint frames = 0; frames < 4; frames++)
    {
      g_assert_true (gtk_widget_activate_action (window, "session.copy-rename-command", NULL));
      loom_ui_test_wait_for_frames (window, 1);
      drop_on (fixture, personal_row, (const char *[]){ fixture->settings, NULL });
      g_assert_true (loom_ui_test_wait_until (shows_current_undo, fixture));
      loom_ui_test_wait_for_frames (window, frames);
      g_signal_emit_by_name (current_undo_button (fixture), "clicked");
      loom_ui_test_wait_for_writes (fixture->window);
      wait_msec (1200);
      assert_place (fixture, fixture->settings, fixture->work_id, FALSE, FALSE);
    }
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

static void
test_dismiss_sliding_in (Fixture      *fixture,
                         gconstpointer user_data)
{
  fixture_run (fixture, dismiss_sliding_in_body);
}

static void
test_move (Fixture      *fixture,
           gconstpointer user_data)
{
  fixture_run (fixture, move_body);
}

/* ——— Session actions ——— */

typedef struct
{
  char    *text;
  gboolean done;
} ClipboardRead;

static void
on_clipboard_read_cb (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  ClipboardRead *read = user_data;
  g_autoptr (GError) error = NULL;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  g_assert_no_error (error);
  read->done = TRUE;
}

static char *
read_clipboard (GtkWidget *widget)
{
  ClipboardRead read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, on_clipboard_read_cb,
                                 &read);
  g_assert_true (loom_ui_test_wait_until (is_true, &read.done));
  return read.text;
}

static LoomRenameDialog *
open_rename_dialog (Fixture *fixture)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "session.rename", NULL));
  return LOOM_RENAME_DIALOG (wait_for_toplevel (LOOM_TYPE_RENAME_DIALOG));
}

static void
sessions_body (Fixture *fixture)
{
  GtkWidget        *window = GTK_WIDGET (fixture->window);
  LoomStore        *store = loom_window_get_store (fixture->window);
  LoomRenameDialog *rename_dialog;
  LoomDeleteDialog *delete_dialog;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *clipboard = NULL;
  g_autofree char *rows = NULL;

  /* Rename: the name is edited, the date is kept. A session without a name gets a suggestion
   * from its first prompt. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->arm64);
  rename_dialog = open_rename_dialog (fixture);
  g_assert_cmpstr (loom_rename_dialog_get_name (rename_dialog), ==,
                   "Explain why the arm64 build fails");
  g_assert_cmpstr (loom_rename_dialog_get_date (rename_dialog), ==, CREATED_DATE);
  g_assert_nonnull (loom_ui_test_find_visible_label (GTK_WIDGET (rename_dialog), CREATED_DATE));
  wait_for_label (GTK_WIDGET (rename_dialog),
                  "New title: Explain why the arm64 build fails - " CREATED_DATE);
  loom_ui_test_save_screenshots (fixture->app, GTK_WIDGET (rename_dialog), "actions-rename-dialog");
  loom_rename_dialog_set_name (rename_dialog, "");
  g_assert_false (
    adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (rename_dialog), "rename"));
  loom_rename_dialog_set_name (rename_dialog, "arm64 build failure - 2020-01-01");
  respond (ADW_MESSAGE_DIALOG (rename_dialog), "rename");
  session = get_session (fixture, fixture->arm64);
  g_assert_cmpstr (loom_session_get_title (session), ==, "arm64 build failure - " CREATED_DATE);
  g_clear_object (&session);

  /* A named session starts from its name; cancelling keeps it. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->login);
  rename_dialog = open_rename_dialog (fixture);
  g_assert_cmpstr (loom_rename_dialog_get_name (rename_dialog), ==, "Fix the flaky login test");
  loom_rename_dialog_set_name (rename_dialog, "Something else");
  respond (ADW_MESSAGE_DIALOG (rename_dialog), "cancel");
  session = get_session (fixture, fixture->login);
  g_assert_cmpstr (loom_session_get_title (session), ==,
                   "Fix the flaky login test - " CREATED_DATE);
  g_clear_object (&session);

  /* The rename command, alone on the clipboard, ready to paste into the agent. */
  g_assert_true (gtk_widget_activate_action (window, "session.copy-rename-command", NULL));
  clipboard = read_clipboard (window);
  g_assert_cmpstr (clipboard, ==, "/rename Fix the flaky login test - " CREATED_DATE);
  g_clear_pointer (&clipboard, g_free);
  wait_for_label (window, "Rename command copied");

  /* A title outside the convention gets the session's date in the command. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->review);
  g_assert_true (gtk_widget_activate_action (window, "session.copy-rename-command", NULL));
  clipboard = read_clipboard (window);
  g_assert_cmpstr (clipboard, ==, "/rename Summarise the design review - " CREATED_DATE);
  g_clear_pointer (&clipboard, g_free);

  /* Pin toggles. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->settings);
  g_assert_true (gtk_widget_activate_action (window, "session.pin", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  session = get_session (fixture, fixture->settings);
  g_assert_true (loom_session_get_pinned (session));
  g_clear_object (&session);
  g_assert_cmpuint (count_in (fixture, LOOM_COLLECTION_PINNED, 0), ==, 2);
  g_assert_true (gtk_widget_activate_action (window, "session.pin", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  session = get_session (fixture, fixture->settings);
  g_assert_false (loom_session_get_pinned (session));
  g_clear_object (&session);

  /* Several at once: a mixed selection is pinned, and archived with one toast to undo. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->login);
  add_to_selection (fixture, fixture->settings);
  {
    g_autoptr (GPtrArray) selected = loom_window_get_selected_sessions (fixture->window);

    g_assert_cmpuint (selected->len, ==, 2);
  }
  g_assert_true (gtk_widget_activate_action (window, "session.pin", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  g_assert_cmpuint (count_in (fixture, LOOM_COLLECTION_PINNED, 0), ==, 2);
  g_assert_true (gtk_widget_activate_action (window, "session.pin", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  g_assert_cmpuint (count_in (fixture, LOOM_COLLECTION_PINNED, 0), ==, 0);
  g_assert_true (gtk_widget_activate_action (window, "session.archive", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  assert_place (fixture, fixture->login, fixture->work_id, TRUE, FALSE);
  assert_place (fixture, fixture->settings, fixture->work_id, TRUE, FALSE);
  undo_from_toast (fixture, "2 sessions archived");
  assert_place (fixture, fixture->login, fixture->work_id, FALSE, FALSE);
  assert_place (fixture, fixture->settings, fixture->work_id, FALSE, FALSE);
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->login);
  g_assert_true (gtk_widget_activate_action (window, "session.pin", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->settings);

  /* Archive, and undo; then restore from the archive, and undo that. */
  g_assert_true (gtk_widget_activate_action (window, "session.archive", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  assert_place (fixture, fixture->settings, fixture->work_id, TRUE, FALSE);
  undo_from_toast (fixture, "“Port the settings page to libadwaita” archived");
  assert_place (fixture, fixture->settings, fixture->work_id, FALSE, FALSE);

  select_session (fixture, LOOM_COLLECTION_ARCHIVED, fixture->notes);
  g_assert_true (gtk_widget_activate_action (window, "session.archive", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  assert_place (fixture, fixture->notes, fixture->personal_id, FALSE, FALSE);
  undo_from_toast (fixture, "“Draft the release notes” restored from the archive");
  assert_place (fixture, fixture->notes, fixture->personal_id, TRUE, FALSE);

  /* Trash (Delete does it too), and undo; restore from the trash, and undo that. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->review);
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_Delete, 0) ||
                 gtk_widget_activate_action (window, "session.trash", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  assert_place (fixture, fixture->review, 0, FALSE, TRUE);
  undo_from_toast (fixture, "“Summarise the design review” moved to the trash");
  assert_place (fixture, fixture->review, 0, FALSE, FALSE);

  select_session (fixture, LOOM_COLLECTION_TRASH, fixture->experiment);
  g_assert_true (gtk_widget_activate_action (window, "session.trash", NULL));
  loom_ui_test_wait_for_writes (fixture->window);
  assert_place (fixture, fixture->experiment, 0, FALSE, FALSE);
  undo_from_toast (fixture, "“Old experiment” restored from the trash");
  assert_place (fixture, fixture->experiment, 0, FALSE, TRUE);

  /* Delete permanently: the dialog lists exactly what the core's dry run says goes. */
  select_session (fixture, LOOM_COLLECTION_ALL, fixture->login);
  g_assert_true (gtk_widget_activate_action (window, "session.delete", NULL));
  delete_dialog = LOOM_DELETE_DIALOG (wait_for_toplevel (LOOM_TYPE_DELETE_DIALOG));
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (delete_dialog)), ==,
                   "Delete Session Permanently?");
  g_assert_nonnull (
    strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (delete_dialog)), "cannot be undone"));
  g_assert_cmpstr (adw_message_dialog_get_default_response (ADW_MESSAGE_DIALOG (delete_dialog)), ==,
                   "cancel");
  g_assert_cmpint (
    adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (delete_dialog), "delete"), ==,
    ADW_RESPONSE_DESTRUCTIVE);
  rows = loom_delete_dialog_describe_rows (loom_delete_dialog_get_plan (delete_dialog));
  g_assert_true (g_str_has_prefix (rows, "4 messages, 2 events, "));
  g_assert_true (g_str_has_suffix (rows, " search entries"));
  {
    g_autofree char *also = g_strdup_printf ("Also removed: %s.", rows);
    g_autoptr (GPtrArray)
      titles = loom_ui_test_find_visible (GTK_WIDGET (delete_dialog), ADW_TYPE_ACTION_ROW);

    wait_for_label (GTK_WIDGET (delete_dialog), also);
    g_assert_cmpuint (titles->len, ==, 1);
    g_assert_cmpstr (adw_preferences_row_get_title (titles->pdata[0]), ==,
                     "Fix the flaky login test - " CREATED_DATE);
  }
  loom_ui_test_save_screenshots (fixture->app, GTK_WIDGET (delete_dialog), "actions-delete-dialog");
  respond (ADW_MESSAGE_DIALOG (delete_dialog), "delete");
  g_assert_null (loom_store_get_session (store, fixture->login, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_clear_error (&error);
  wait_for_label (window, "1 session deleted");

  /* Empty Trash: two sessions there; the dialog names both, and both go. */
  drop_on (fixture, loom_sidebar_get_collection_row (get_sidebar (fixture), LOOM_COLLECTION_TRASH),
           (const char *[]){ fixture->review, NULL });
  g_assert_cmpuint (count_in (fixture, LOOM_COLLECTION_TRASH, 0), ==, 2);
  loom_window_actions_update (fixture->window);
  /* The Trash row's own menu offers it too. */
  {
    GtkWidget  *trash_row = loom_sidebar_get_collection_row (get_sidebar (fixture),
                                                             LOOM_COLLECTION_TRASH);
    GtkPopover *menu;

    g_assert_true (loom_ui_test_press_key (trash_row, GDK_KEY_F10, GDK_SHIFT_MASK));
    menu = loom_sidebar_row_get_menu (LOOM_SIDEBAR_ROW (trash_row));
    g_assert_nonnull (menu);
    g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, menu));
    loom_ui_test_save_screenshot (GTK_WIDGET (menu), "actions-trash-menu");
    gtk_popover_popdown (menu);
  }
  g_assert_true (gtk_widget_activate_action (window, "win.empty-trash", NULL));
  delete_dialog = LOOM_DELETE_DIALOG (wait_for_toplevel (LOOM_TYPE_DELETE_DIALOG));
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (delete_dialog)), ==,
                   "Empty Trash?");
  g_assert_cmpstr (
    adw_message_dialog_get_response_label (ADW_MESSAGE_DIALOG (delete_dialog), "delete"), ==,
    "_Empty Trash");
  g_assert_cmpuint (loom_delete_plan_get_n_sessions (loom_delete_dialog_get_plan (delete_dialog)),
                    ==, 2);
  loom_ui_test_save_screenshot (GTK_WIDGET (delete_dialog), "actions-empty-trash-dialog");
  respond (ADW_MESSAGE_DIALOG (delete_dialog), "delete");
  g_assert_cmpuint (count_in (fixture, LOOM_COLLECTION_TRASH, 0), ==, 0);
  g_assert_null (loom_store_get_session (store, fixture->experiment, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (loom_store_get_session (store, fixture->review, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_cmpuint (count_in (fixture, LOOM_COLLECTION_EVERYTHING, 0), ==, 3);

  /* With nothing in the trash, there is nothing to confirm. */
  g_assert_true (gtk_widget_activate_action (window, "win.empty-trash", NULL));
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_null (loom_ui_test_find_toplevel (LOOM_TYPE_DELETE_DIALOG));
}

static void
test_sessions (Fixture      *fixture,
               gconstpointer user_data)
{
  fixture_run (fixture, sessions_body);
}

static void
test_quick_succession (Fixture      *fixture,
                       gconstpointer user_data)
{
  fixture_run (fixture, quick_succession_body);
}

/* The window class gets its actions from LoomWindow's class_init; until that calls
 * loom_window_actions_class_init(), the test installs them itself. */
static void
ensure_actions (void)
{
  GtkWidgetClass     *klass = g_type_class_ref (LOOM_TYPE_WINDOW);
  const GVariantType *parameter_type;
  const char         *property_name;
  const char         *name;
  gboolean            found = FALSE;
  GType               owner;

  for (guint i = 0;
       gtk_widget_class_query_action (klass, i, &owner, &name, &parameter_type, &property_name);
       i++)
    found = found || g_str_equal (name, "session.rename");

  if (!found)
    loom_window_actions_class_init (klass);
  g_type_class_unref (klass);
}

int
main (int   argc,
      char *argv[])
{
  /* The cairo renderer draws the first frame fastest under Xvfb, and gives stable screenshots. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  loom_core_init ();
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);
  ensure_actions ();

  /* Screenshots must not catch a transition half-way. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add ("/app/actions/folders", Fixture, NULL, fixture_set_up, test_folders,
              fixture_tear_down);
  g_test_add ("/app/actions/move", Fixture, NULL, fixture_set_up, test_move, fixture_tear_down);
  g_test_add ("/app/actions/sessions", Fixture, NULL, fixture_set_up, test_sessions,
              fixture_tear_down);
  g_test_add ("/app/actions/quick-succession", Fixture, NULL, fixture_set_up, test_quick_succession,
              fixture_tear_down);
  g_test_add ("/app/actions/dismiss-sliding-in", Fixture, NULL, fixture_set_up,
              test_dismiss_sliding_in, fixture_tear_down);

  return g_test_run ();
}
