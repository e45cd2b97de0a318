/* test-backup-key.c — the backup key, its recovery key, and the key in a real gnome-keyring.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The keyring tests run inside tests/harness/loom-test-session (a private session bus and a
 * gnome-keyring-daemon with an unlocked login collection) and skip outside it, rather than
 * write into the keyring of whoever runs them.
 */
#include <libsecret/secret.h>
#include <sodium.h>
#include <string.h>

#include "loom-backup-key-private.h"
#include "loom-error.h"
#include "loom-keyring.h"
#include "loom-test-utils.h"

#define SCHEMA_NAME     "org.intentloom.History.BackupKey"
#define RECOVERY_LENGTH (56 + 13)

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

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

/* A key made of fixed bytes, so that what the substitution test finds is the same every run. */
static LoomBackupKey *
fixed_key (guint8 seed)
{
  guint8 bytes[LOOM_BACKUP_KEY_SIZE];

  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8)(seed * 31 + i * 17);
  return loom_backup_key_new_from_bytes (bytes);
}

static void
assert_same_key (const LoomBackupKey *a,
                 const LoomBackupKey *b)
{
  g_assert_cmpstr (loom_backup_key_get_id (a), ==, loom_backup_key_get_id (b));
  g_assert_cmpmem (loom_backup_key_get_bytes (a), LOOM_BACKUP_KEY_SIZE,
                   loom_backup_key_get_bytes (b), LOOM_BACKUP_KEY_SIZE);
}

static void
test_generate (void)
{
  g_autoptr (LoomBackupKey) a = loom_backup_key_generate ();
  g_autoptr (LoomBackupKey) b = loom_backup_key_generate ();
  g_autoptr (LoomBackupKey) copy = loom_backup_key_copy (a);
  g_autoptr (LoomBackupKey) fixed = fixed_key (1);
  g_autoptr (LoomBackupKey) fixed_again = fixed_key (1);
  const char *id = loom_backup_key_get_id (a);

  g_assert_cmpuint (strlen (id), ==, LOOM_BACKUP_KEY_ID_CHARS);
  for (const char *p = id; *p != '\0'; p++)
    g_assert_true (g_ascii_isdigit (*p) || (*p >= 'a' && *p <= 'f'));

  /* Random keys differ, and so do their ids. */
  g_assert_cmpint (
    memcmp (loom_backup_key_get_bytes (a), loom_backup_key_get_bytes (b), LOOM_BACKUP_KEY_SIZE), !=,
    0);
  g_assert_cmpstr (id, !=, loom_backup_key_get_id (b));

  /* The id comes from the key alone: the same bytes, the same id, now and later. */
  assert_same_key (a, copy);
  assert_same_key (fixed, fixed_again);
  /* The id is not the key's first bytes in hex. */
  {
    char hex[LOOM_BACKUP_KEY_ID_CHARS + 1];

    sodium_bin2hex (hex, sizeof hex, loom_backup_key_get_bytes (a), 8);
    g_assert_cmpstr (hex, !=, id);
  }
}

static void
test_recovery_round_trip (void)
{
  for (guint round = 0; round < 50; round++)
    {
      g_autoptr (LoomBackupKey) key = round == 0 ? fixed_key (2) : loom_backup_key_generate ();
      g_autoptr (LoomBackupKey) back = NULL;
      g_autoptr (GError) error = NULL;
      char *text = loom_backup_key_dup_recovery (key);

      /* 14 groups of 4 of Crockford's alphabet. */
      g_assert_cmpuint (strlen (text), ==, RECOVERY_LENGTH);
      for (guint i = 0; i < RECOVERY_LENGTH; i++)
        {
          if (i % 5 == 4)
            g_assert_cmpint (text[i], ==, '-');
          else
            g_assert_nonnull (strchr (crockford, text[i]));
        }

      back = loom_backup_key_new_from_recovery (text, &error);
      g_assert_no_error (error);
      assert_same_key (key, back);
      loom_backup_key_free_text (text);
    }
}

/* Whether Crockford's decoder reads @a and @b as the same digit. */
static gboolean
same_digit (char a,
            char b)
{
  const char *zero = "0Oo";
  const char *one = "1IiLl";

  a = g_ascii_toupper (a);
  b = g_ascii_toupper (b);
  if (a == b)
    return TRUE;
  if (strchr (zero, a) && strchr (zero, b))
    return TRUE;
  if (strchr (one, a) && strchr (one, b))
    return TRUE;
  return FALSE;
}

static void
test_recovery_substitutions (void)
{
  /* Every character a person may type in place of another: the alphabet, its lower case, the
   * letters it leaves out, and a few that are no letter at all. */
  const char *replacements = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzOoIiLlUu*=";

  for (guint k = 0; k < 3; k++)
    {
      g_autoptr (LoomBackupKey) key = fixed_key ((guint8)(10 + k));
      char *text = loom_backup_key_dup_recovery (key);
      guint refused = 0;
      guint accepted = 0;

      for (guint i = 0; i < RECOVERY_LENGTH; i++)
        {
          if (text[i] == '-')
            continue;
          for (const char *r = replacements; *r != '\0'; r++)
            {
              g_autoptr (LoomBackupKey) back = NULL;
              g_autoptr (GError) error = NULL;
              char original = text[i];

              text[i] = *r;
              back = loom_backup_key_new_from_recovery (text, &error);
              text[i] = original;

              if (same_digit (original, *r))
                {
                  /* The same digit, written another way: the same key. */
                  g_assert_no_error (error);
                  assert_same_key (key, back);
                  accepted++;
                }
              else
                {
                  /* Never another key: refused, by the checksum or as no base32 at all. */
                  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
                  g_assert_null (back);
                  if (strchr ("Uu*=", *r) != NULL)
                    g_assert_nonnull (strstr (error->message, "cannot be in one"));
                  else
                    g_assert_nonnull (strstr (error->message, "checksum"));
                  refused++;
                }
            }
        }
      g_assert_cmpuint (accepted, >=, 56);
      g_assert_cmpuint (refused, >, 56 * 30);
      loom_backup_key_free_text (text);
    }
}

/* Replaces every @from of @text with @to. */
static char *
replace_all (const char *text,
             char        from,
             char        to)
{
  char *copy = g_strdup (text);

  for (char *p = copy; *p != '\0'; p++)
    if (*p == from)
      *p = to;
  return copy;
}

static void
assert_reads_as (const char          *text,
                 const LoomBackupKey *key)
{
  g_autoptr (LoomBackupKey) back = NULL;
  g_autoptr (GError) error = NULL;

  back = loom_backup_key_new_from_recovery (text, &error);
  g_assert_no_error (error);
  assert_same_key (key, back);
}

static void
test_recovery_tolerant (void)
{
  /* Some key whose recovery key has zeros and ones in it, to read as O, I and L. */
  for (guint seed = 0; seed < 200; seed++)
    {
      g_autoptr (LoomBackupKey) key = fixed_key ((guint8)seed);
      g_autofree char *text = loom_backup_key_dup_recovery (key);
      g_autofree char *lower = g_ascii_strdown (text, -1);
      g_autofree char *spaced = replace_all (text, '-', ' ');
      g_autofree char *bare = NULL;
      g_autofree char *with_o = replace_all (text, '0', 'O');
      g_autofree char *with_i = replace_all (text, '1', 'I');
      g_autofree char *with_l = replace_all (lower, '1', 'l');
      g_autofree char *padded = g_strdup_printf ("  \t%s\n", spaced);
      g_autofree char *regrouped = NULL;
      g_autoptr (GString) bare_string = g_string_new (NULL);
      g_autoptr (GString) regrouped_string = g_string_new (NULL);

      if (strchr (text, '0') == NULL || strchr (text, '1') == NULL)
        continue;

      for (const char *p = text; *p != '\0'; p++)
        if (*p != '-')
          g_string_append_c (bare_string, *p);
      bare = g_strdup (bare_string->str);
      /* Groups of three, as someone might copy it. */
      for (guint i = 0; bare[i] != '\0'; i++)
        {
          if (i > 0 && i % 3 == 0)
            g_string_append (regrouped_string, " - ");
          g_string_append_c (regrouped_string, bare[i]);
        }
      regrouped = g_strdup (regrouped_string->str);

      assert_reads_as (text, key);
      assert_reads_as (lower, key);
      assert_reads_as (spaced, key);
      assert_reads_as (bare, key);
      assert_reads_as (with_o, key);
      assert_reads_as (with_i, key);
      assert_reads_as (with_l, key);
      assert_reads_as (padded, key);
      assert_reads_as (regrouped, key);
      return;
    }
  g_assert_not_reached ();
}

static void
assert_recovery_refused (const char *text,
                         const char *says)
{
  g_autoptr (LoomBackupKey) back = NULL;
  g_autoptr (GError) error = NULL;

  back = loom_backup_key_new_from_recovery (text, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_assert_null (back);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, says));
}

static void
test_recovery_refused (void)
{
  g_autoptr (LoomBackupKey) key = fixed_key (3);
  g_autofree char *text = loom_backup_key_dup_recovery (key);
  g_autofree char *shorter = g_strndup (text, RECOVERY_LENGTH - 1);
  g_autofree char *longer = g_strdup_printf ("%s0", text);
  g_autofree char *swapped = g_strdup (text);
  g_autofree char *other_key = NULL;
  g_autofree char *accented = g_strdup_printf ("%s-é", shorter);

  assert_recovery_refused ("", "this one has 0");
  assert_recovery_refused (shorter, "this one has 55");
  assert_recovery_refused (longer, "this one has 57");
  assert_recovery_refused (accented, "cannot be in one");

  /* Two neighbours swapped, the typo a checksum is for. */
  for (guint i = 0; i + 1 < RECOVERY_LENGTH; i++)
    if (swapped[i] != '-' && swapped[i + 1] != '-' && swapped[i] != swapped[i + 1])
      {
        char c = swapped[i];

        swapped[i] = swapped[i + 1];
        swapped[i + 1] = c;
        break;
      }
  assert_recovery_refused (swapped, "checksum");

  /* The key of one recovery key with the checksum of another. */
  {
    g_autoptr (LoomBackupKey) other = fixed_key (4);
    g_autofree char *other_text = loom_backup_key_dup_recovery (other);

    other_key = g_strdup (text);
    memcpy (other_key + RECOVERY_LENGTH - 4, other_text + RECOVERY_LENGTH - 4, 4);
    if (!g_str_equal (other_key, text))
      assert_recovery_refused (other_key, "checksum");
  }
}

/* ——— In the keyring ——— */

/* Every test starts from a keyring without backup keys. */
static void
clear_backup_keys (void)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) ids = loom_keyring_list_key_ids (NULL, &error);

  g_assert_no_error (error);
  for (guint i = 0; ids[i] != NULL; i++)
    {
      g_assert_true (loom_keyring_clear_secret (ids[i], NULL, &error));
      g_assert_no_error (error);
    }
}

/* The keyring's item for @key_id, read by libsecret directly: the schema, and the secret. */
static char *
item_secret (const char *key_id)
{
  g_autoptr (GHashTable) attributes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GError) error = NULL;
  g_autoptr (SecretValue) value = NULL;
  GList *items;
  char  *secret;

  g_hash_table_insert (attributes, (char *)"key-id", (char *)key_id);
  items = secret_service_search_sync (NULL, NULL, attributes,
                                      SECRET_SEARCH_ALL | SECRET_SEARCH_LOAD_SECRETS, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_length (items), ==, 1);
  g_assert_cmpstr (secret_item_get_schema_name (items->data), ==, SCHEMA_NAME);
  value = secret_item_get_secret (items->data);
  secret = g_strdup (secret_value_get_text (value));
  g_list_free_full (items, g_object_unref);
  return secret;
}

static void
test_keyring_create_and_load (void)
{
  g_autoptr (LoomBackupKey) created = NULL;
  g_autoptr (LoomBackupKey) loaded = NULL;
  g_autoptr (LoomBackupKey) by_id = NULL;
  g_autoptr (LoomBackupKey) again = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *id = NULL;
  g_autofree char   *secret = NULL;
  g_autofree guint8 *decoded = NULL;
  gsize              decoded_size = 0;
  gboolean           was_created = TRUE;

  if (!inside_harness ())
    return;
  clear_backup_keys ();

  /* Nothing yet: no id, no error; loading is NOT_FOUND. */
  id = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  g_assert_null (id);
  loaded = loom_backup_key_load (NULL, NULL, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_assert_null (loaded);
  g_clear_error (&error);

  created = loom_backup_key_create (NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (created);

  id = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (id, ==, loom_backup_key_get_id (created));

  /* In the keyring under our schema, its secret the key in base64. */
  secret = item_secret (id);
  decoded = g_base64_decode (secret, &decoded_size);
  g_assert_cmpmem (decoded, decoded_size, loom_backup_key_get_bytes (created),
                   LOOM_BACKUP_KEY_SIZE);

  loaded = loom_backup_key_load (NULL, NULL, &error);
  g_assert_no_error (error);
  assert_same_key (created, loaded);
  by_id = loom_backup_key_load (id, NULL, &error);
  g_assert_no_error (error);
  assert_same_key (created, by_id);

  /* A second key is refused and the first one kept. */
  again = loom_backup_key_create (NULL, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS);
  g_assert_null (again);
  g_assert_nonnull (strstr (error->message, id));
  g_clear_error (&error);

  again = loom_backup_key_load_or_create (&was_created, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (was_created);
  assert_same_key (created, again);
  {
    g_auto (GStrv) ids = loom_keyring_list_key_ids (NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (g_strv_length (ids), ==, 1);
  }
}

static void
test_keyring_load_or_create (void)
{
  g_autoptr (LoomBackupKey) first = NULL;
  g_autoptr (LoomBackupKey) second = NULL;
  g_autoptr (GError) error = NULL;
  gboolean created = FALSE;

  if (!inside_harness ())
    return;
  clear_backup_keys ();

  first = loom_backup_key_load_or_create (&created, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (created);

  second = loom_backup_key_load_or_create (&created, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (created);
  assert_same_key (first, second);
}

static void
test_keyring_store_from_recovery (void)
{
  g_autoptr (LoomBackupKey) original = NULL;
  g_autoptr (LoomBackupKey) restored = NULL;
  g_autoptr (LoomBackupKey) loaded = NULL;
  g_autoptr (LoomBackupKey) newer = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *id = NULL;
  char            *recovery;

  if (!inside_harness ())
    return;
  clear_backup_keys ();

  original = loom_backup_key_create (NULL, &error);
  g_assert_no_error (error);
  recovery = loom_backup_key_dup_recovery (original);

  /* A new machine: an empty keyring and the recovery key written down. */
  clear_backup_keys ();
  restored = loom_backup_key_new_from_recovery (recovery, &error);
  g_assert_no_error (error);
  loom_backup_key_free_text (recovery);
  g_assert_true (loom_backup_key_store (restored, NULL, &error));
  g_assert_no_error (error);

  loaded = loom_backup_key_load (NULL, NULL, &error);
  g_assert_no_error (error);
  assert_same_key (original, loaded);

  /* Storing again changes nothing. */
  g_assert_true (loom_backup_key_store (restored, NULL, &error));
  g_assert_no_error (error);
  {
    g_auto (GStrv) ids = loom_keyring_list_key_ids (NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (g_strv_length (ids), ==, 1);
  }

  /* Another key stored later is the one named, newest first; the older one stays readable. */
  newer = loom_backup_key_generate ();
  g_assert_true (loom_backup_key_store (newer, NULL, &error));
  g_assert_no_error (error);
  id = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (id, ==, loom_backup_key_get_id (newer));
  g_clear_pointer (&loaded, loom_backup_key_free);
  loaded = loom_backup_key_load (loom_backup_key_get_id (original), NULL, &error);
  g_assert_no_error (error);
  assert_same_key (original, loaded);
}

static void
test_keyring_deleted (void)
{
  g_autoptr (LoomBackupKey) created = NULL;
  g_autoptr (LoomBackupKey) loaded = NULL;
  g_autoptr (GError) error = NULL;

  if (!inside_harness ())
    return;
  clear_backup_keys ();

  created = loom_backup_key_create (NULL, &error);
  g_assert_no_error (error);
  g_assert_true (loom_keyring_clear_secret (loom_backup_key_get_id (created), NULL, &error));
  g_assert_no_error (error);

  loaded = loom_backup_key_load (loom_backup_key_get_id (created), NULL, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, loom_backup_key_get_id (created)));
  g_assert_null (loaded);
  g_clear_error (&error);

  loaded = loom_backup_key_load (NULL, NULL, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "loom backup-key create"));
}

static void
assert_locked_error (const GError *error)
{
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_KEYRING);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "locked"));
  g_assert_nonnull (strstr (error->message, "Unlock it"));
}

static void
test_keyring_locked (void)
{
  g_autoptr (LoomBackupKey) created = NULL;
  g_autoptr (LoomBackupKey) loaded = NULL;
  g_autoptr (LoomBackupKey) other = loom_backup_key_generate ();
  g_autoptr (GError) error = NULL;
  g_autofree char *id = NULL;
  gboolean         was_created = TRUE;

  if (!inside_harness ())
    return;
  clear_backup_keys ();

  created = loom_backup_key_create (NULL, &error);
  g_assert_no_error (error);
  loom_test_lock_login_keyring ();

  /* The key is named, since naming it reads no secret, but it is not read; nothing waits for
   * a prompt that no one can answer. */
  id = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (id, ==, loom_backup_key_get_id (created));

  loaded = loom_backup_key_load (NULL, NULL, &error);
  assert_locked_error (error);
  g_assert_null (loaded);
  g_clear_error (&error);

  loaded = loom_backup_key_load (id, NULL, &error);
  assert_locked_error (error);
  g_clear_error (&error);

  /* A locked key is not a missing one: no second key is made in its place. */
  loaded = loom_backup_key_load_or_create (&was_created, NULL, &error);
  assert_locked_error (error);
  g_assert_false (was_created);
  g_assert_null (loaded);
  g_clear_error (&error);

  g_assert_false (loom_backup_key_store (other, NULL, &error));
  assert_locked_error (error);
  g_clear_error (&error);

  /* With no key in it, a locked keyring refuses a new one. */
  loom_test_unlock_login_keyring ();
  clear_backup_keys ();
  loom_test_lock_login_keyring ();
  loaded = loom_backup_key_load_or_create (&was_created, NULL, &error);
  assert_locked_error (error);
  g_assert_false (was_created);
  g_clear_error (&error);
  loaded = loom_backup_key_create (NULL, &error);
  assert_locked_error (error);
  g_clear_error (&error);

  /* Unlocked, it works again. */
  loom_test_unlock_login_keyring ();
  {
    g_auto (GStrv) ids = loom_keyring_list_key_ids (NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (g_strv_length (ids), ==, 0);
  }
  loaded = loom_backup_key_load_or_create (&was_created, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (was_created);
}

/* A session bus of our own on which nothing runs and nothing can be started: its
 * configuration names no folder of services. Returns the daemon; *@address is where it is. */
static GSubprocess *
start_empty_bus (const char *dir,
                 char      **address)
{
  g_autofree char *config_path = g_build_filename (dir, "empty-bus.conf", NULL);
  g_autofree char *config = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDataInputStream) lines = NULL;
  GSubprocess *daemon;

  config = g_strdup_printf (
    "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
    " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
    "<busconfig>\n"
    "  <type>session</type>\n"
    "  <listen>unix:tmpdir=%s</listen>\n"
    "  <policy context=\"default\">\n"
    "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
    "    <allow eavesdrop=\"true\"/>\n"
    "    <allow own=\"*\"/>\n"
    "  </policy>\n"
    "</busconfig>\n",
    dir);
  g_file_set_contents (config_path, config, -1, &error);
  g_assert_no_error (error);

  daemon = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "dbus-daemon", "--config-file",
                             config_path, "--nofork", "--nopidfile", "--print-address=1", NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (daemon));
  *address = g_data_input_stream_read_line (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*address);
  return daemon;
}

static void
assert_unavailable_error (const GError *error)
{
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_KEYRING);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "no keyring service is running"));
  g_assert_nonnull (strstr (error->message, "Start your desktop’s keyring"));
}

/* In a subprocess whose session bus is LOOM_TEST_OTHER_BUS: every call fails, and clearly. */
static void
check_no_service (void)
{
  g_autoptr (LoomBackupKey) key = loom_backup_key_generate ();
  g_autoptr (LoomBackupKey) loaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *id = NULL;
  gboolean         created = TRUE;

  g_setenv ("DBUS_SESSION_BUS_ADDRESS", g_getenv ("LOOM_TEST_OTHER_BUS"), TRUE);

  id = loom_backup_key_find_id (NULL, &error);
  assert_unavailable_error (error);
  g_assert_null (id);
  g_clear_error (&error);

  loaded = loom_backup_key_load (NULL, NULL, &error);
  assert_unavailable_error (error);
  g_clear_error (&error);

  loaded = loom_backup_key_load (loom_backup_key_get_id (key), NULL, &error);
  assert_unavailable_error (error);
  g_clear_error (&error);

  loaded = loom_backup_key_load_or_create (&created, NULL, &error);
  assert_unavailable_error (error);
  g_assert_false (created);
  g_clear_error (&error);

  loaded = loom_backup_key_create (NULL, &error);
  assert_unavailable_error (error);
  g_clear_error (&error);

  g_assert_false (loom_backup_key_store (key, NULL, &error));
  assert_unavailable_error (error);
}

static void
test_keyring_no_service (void)
{
  g_autoptr (GSubprocess) daemon = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *address = NULL;

  if (!inside_harness ())
    return;
  if (g_test_subprocess ())
    {
      check_no_service ();
      return;
    }

  /* A bus that is there, with no keyring on it. */
  dir = loom_test_make_tmpdir ();
  daemon = start_empty_bus (dir, &address);
  g_setenv ("LOOM_TEST_OTHER_BUS", address, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  g_subprocess_force_exit (daemon);
  g_subprocess_wait (daemon, NULL, NULL);

  /* No bus at all. */
  g_setenv ("LOOM_TEST_OTHER_BUS", "unix:path=/nonexistent/loom-test-bus", TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  g_unsetenv ("LOOM_TEST_OTHER_BUS");
  loom_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/backup-key/generate", test_generate);
  g_test_add_func ("/backup-key/recovery/round-trip", test_recovery_round_trip);
  g_test_add_func ("/backup-key/recovery/substitutions", test_recovery_substitutions);
  g_test_add_func ("/backup-key/recovery/tolerant", test_recovery_tolerant);
  g_test_add_func ("/backup-key/recovery/refused", test_recovery_refused);
  g_test_add_func ("/backup-key/keyring/create-and-load", test_keyring_create_and_load);
  g_test_add_func ("/backup-key/keyring/load-or-create", test_keyring_load_or_create);
  g_test_add_func ("/backup-key/keyring/store-from-recovery", test_keyring_store_from_recovery);
  g_test_add_func ("/backup-key/keyring/deleted", test_keyring_deleted);
  g_test_add_func ("/backup-key/keyring/locked", test_keyring_locked);
  g_test_add_func ("/backup-key/keyring/no-service", test_keyring_no_service);

  return g_test_run ();
}
