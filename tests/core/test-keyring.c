/* test-keyring.c — the libsecret wrapper against a real gnome-keyring-daemon.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs inside tests/harness/loom-test-session, which gives it a private session bus and a
 * keyring daemon whose login collection is unlocked. Outside the harness it skips rather than
 * write into the keyring of whoever runs it.
 */
#include <string.h>

#include <libsecret/secret.h>

#include "loom-error.h"
#include "loom-keyring.h"

#define KEY_SCHEMA_NAME       "org.intentloom.History.BackupKey"
#define LOGIN_COLLECTION_PATH "/org/freedesktop/secrets/collection/login/"

static gboolean
inside_harness (void)
{
  if (g_getenv ("LOOM_TEST_SESSION") == NULL)
    {
      g_test_skip ("needs the private keyring of tests/harness/loom-test-session");
      return FALSE;
    }

  return TRUE;
}

/* Asks secret-tool, a separate client of the keyring daemon, for the secret of @key_id: what it
 * finds is really in the daemon, not in some cache of ours. Returns NULL when it finds nothing. */
static char *
secret_tool_lookup (const char *key_id)
{
  const char *argv[] = { "secret-tool", "lookup", "key-id", key_id, NULL };
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  g_autofree char *standard_output = NULL;
  g_autofree char *standard_error = NULL;
  int              wait_status = 0;

  /* secret-tool is a GLib program too: the fatal warnings asked of this test are not its own. */
  envp = g_environ_unsetenv (envp, "G_DEBUG");
  g_spawn_sync (NULL, (char **)argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &standard_output,
                &standard_error, &wait_status, &error);
  g_assert_no_error (error);

  if (!g_spawn_check_wait_status (wait_status, NULL))
    {
      /* It exits with 1 and says nothing when there is no such item. */
      g_assert_cmpstr (standard_output, ==, "");
      if (standard_error != NULL && *standard_error != '\0')
        g_test_message ("secret-tool: %s", standard_error);
      return NULL;
    }

  return g_steal_pointer (&standard_output);
}

/* Checks that the keyring holds exactly one item for @key_id, in the login collection, with our
 * schema and @label: storing twice must replace, not pile up. */
static void
assert_one_login_item (const char *key_id,
                       const char *label)
{
  g_autoptr (GHashTable) attributes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GError) error = NULL;
  GList      *items;
  SecretItem *item;
  const char *path;

  g_hash_table_insert (attributes, (char *)"key-id", (char *)key_id);
  items = secret_service_search_sync (NULL, NULL, attributes, SECRET_SEARCH_ALL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_length (items), ==, 1);

  item = items->data;
  path = g_dbus_proxy_get_object_path (G_DBUS_PROXY (item));
  g_assert_true (g_str_has_prefix (path, LOGIN_COLLECTION_PATH));
  g_assert_cmpstr (secret_item_get_schema_name (item), ==, KEY_SCHEMA_NAME);
  g_assert_cmpstr (secret_item_get_label (item), ==, label);

  g_list_free_full (items, g_object_unref);
}

static void
test_keyring_store_lookup_clear (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *found = NULL;
  g_autofree char *from_daemon = NULL;
  gboolean         ok;

  if (!inside_harness ())
    return;

  ok = loom_keyring_store_secret ("test-sync", "Intentloom History test key", "s3cret-één", NULL,
                                  &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  found = loom_keyring_lookup_secret ("test-sync", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found, ==, "s3cret-één");
  from_daemon = secret_tool_lookup ("test-sync");
  g_assert_cmpstr (from_daemon, ==, "s3cret-één");
  assert_one_login_item ("test-sync", "Intentloom History test key");
  g_clear_pointer (&found, g_free);
  g_clear_pointer (&from_daemon, g_free);

  /* Storing again under the same key replaces the secret and the label. */
  ok = loom_keyring_store_secret ("test-sync", "Intentloom History test key (new)", "second", NULL,
                                  &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  found = loom_keyring_lookup_secret ("test-sync", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found, ==, "second");
  from_daemon = secret_tool_lookup ("test-sync");
  g_assert_cmpstr (from_daemon, ==, "second");
  assert_one_login_item ("test-sync", "Intentloom History test key (new)");
  g_clear_pointer (&found, g_free);
  g_clear_pointer (&from_daemon, g_free);

  /* Another key is simply absent: no secret, and no error either. */
  found = loom_keyring_lookup_secret ("test-sync-other", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (found);

  ok = loom_keyring_clear_secret ("test-sync", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  found = loom_keyring_lookup_secret ("test-sync", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
  from_daemon = secret_tool_lookup ("test-sync");
  g_assert_null (from_daemon);

  /* Clearing what is not there is not a failure. */
  ok = loom_keyring_clear_secret ("test-sync", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

static void
result_ready_cb (GObject      *source_object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  g_assert_null (source_object);
  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);

  return g_steal_pointer (slot);
}

static gboolean
store_and_wait (const char   *key_id,
                const char   *label,
                const char   *secret,
                GCancellable *cancellable,
                GError      **error)
{
  g_autoptr (GAsyncResult) result = NULL;
  GAsyncResult *slot = NULL;

  loom_keyring_store_secret_async (key_id, label, secret, cancellable, result_ready_cb, &slot);
  result = wait_for_result (&slot);

  return loom_keyring_store_secret_finish (result, error);
}

static char *
lookup_and_wait (const char   *key_id,
                 GCancellable *cancellable,
                 GError      **error)
{
  g_autoptr (GAsyncResult) result = NULL;
  GAsyncResult *slot = NULL;

  loom_keyring_lookup_secret_async (key_id, cancellable, result_ready_cb, &slot);
  result = wait_for_result (&slot);

  return loom_keyring_lookup_secret_finish (result, error);
}

static void
test_keyring_async (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *found = NULL;
  g_autofree char *from_daemon = NULL;
  gboolean         ok;

  if (!inside_harness ())
    return;

  ok = store_and_wait ("test-async", "Async test key", "async-secret", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  found = lookup_and_wait ("test-async", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found, ==, "async-secret");
  from_daemon = secret_tool_lookup ("test-async");
  g_assert_cmpstr (from_daemon, ==, "async-secret");
  assert_one_login_item ("test-async", "Async test key");
  g_clear_pointer (&found, g_free);

  ok = store_and_wait ("test-async", "Async test key", "async-secret-2", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  found = lookup_and_wait ("test-async", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found, ==, "async-secret-2");
  assert_one_login_item ("test-async", "Async test key");
  g_clear_pointer (&found, g_free);

  found = lookup_and_wait ("test-async-other", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (found);

  ok = loom_keyring_clear_secret ("test-async", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  found = lookup_and_wait ("test-async", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
}

static void
test_keyring_cancelled (void)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *found = NULL;
  gboolean         ok;

  if (!inside_harness ())
    return;

  g_cancellable_cancel (cancellable);

  /* Cancelling is the user's choice, not a keyring failure: it keeps its own error. */
  ok = store_and_wait ("test-cancelled", "Cancelled test key", "never", cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (ok);
  g_clear_error (&error);

  found = lookup_and_wait ("test-cancelled", cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (found);
  g_clear_error (&error);

  found = loom_keyring_lookup_secret ("test-cancelled", cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (found);
  g_clear_error (&error);

  /* And nothing was stored. */
  found = loom_keyring_lookup_secret ("test-cancelled", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
}

static void
test_keyring_unreachable (void)
{
  if (!inside_harness ())
    return;

  if (g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *found = NULL;

      /* No keyring answers here: every operation must fail with our error, naming the key. */
      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/loom-test-bus", TRUE);

      g_assert_false (
        loom_keyring_store_secret ("test-unreachable", "Unreachable", "secret", NULL, &error));
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_KEYRING);
      g_assert_true (g_str_has_prefix (error->message, "Could not store key “test-unreachable” "
                                                       "in the login keyring: "));
      g_clear_error (&error);

      found = loom_keyring_lookup_secret ("test-unreachable", NULL, &error);
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_KEYRING);
      g_assert_true (g_str_has_prefix (error->message, "Could not read key “test-unreachable” "
                                                       "from the login keyring: "));
      g_assert_null (found);
      g_clear_error (&error);

      found = lookup_and_wait ("test-unreachable", NULL, &error);
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_KEYRING);
      g_assert_null (found);
      g_clear_error (&error);

      g_assert_false (loom_keyring_clear_secret ("test-unreachable", NULL, &error));
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_KEYRING);
      g_assert_true (g_str_has_prefix (error->message, "Could not remove key “test-unreachable” "
                                                       "from the login keyring: "));
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/keyring/store-lookup-clear", test_keyring_store_lookup_clear);
  g_test_add_func ("/keyring/async", test_keyring_async);
  g_test_add_func ("/keyring/cancelled", test_keyring_cancelled);
  g_test_add_func ("/keyring/unreachable", test_keyring_unreachable);

  return g_test_run ();
}
