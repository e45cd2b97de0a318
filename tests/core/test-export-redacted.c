/* test-export-redacted.c — a redacted package holds none of the secrets of its session.
 *
 * A Claude Code session, imported into a real store, is made of every true positive of the
 * labelled test set (redact-cases.txt): each is a prompt, a reply that repeats it, the content
 * of a file the session writes (so a diff holds it) and the output of a call; the workspace
 * holds the same secrets in a text file the session reads, a binary file with a secret after a
 * NUL, and a file whose name is a token. The redacted package of that session is then read
 * byte by byte, every file and every name in it, and no secret may be found anywhere, not even
 * the fragment of one that ends a title the store cut; the placeholders are the same in every
 * file; the manifest counts what was replaced; the package
 * verifies and imports back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE

#include <glib/gstdio.h>
#include <string.h>

#include "loom-core.h"
#include "loom-export.h"
#include "loom-package-import.h"
#include "loom-test-utils.h"

#define SESSION_ID "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"

/* The first prompt, which becomes the title and so the package's name. */
#define TITLE_TOKEN "ghp_R8x2Lq7Vn4Tz9Kw3Pb6Yc1Md5Hs0Jf8Ga2Ue"

typedef struct
{
  char *family;
  char *secret;
  char *text; /* the whole case, the secret in its context */
} Secret;

typedef struct
{
  LoomTestStore base;
  char         *root;
  char         *workspace;
  char         *dest;
  char         *uuid;    /* of the session in the store */
  GPtrArray    *secrets; /* Secret */
} Fixture;

static void
secret_free (Secret *s)
{
  g_free (s->family);
  g_free (s->secret);
  g_free (s->text);
  g_free (s);
}

/* The secret of a true positive whose expected text has one placeholder: what stands in the
 * text where the placeholder stands in the expected one. */
static char *
secret_of (const char *text,
           const char *expected)
{
  const char *open = strstr (expected, "[REDACTED:");
  const char *close = open != NULL ? strchr (open, ']') : NULL;
  gsize       prefix, suffix, length = strlen (text);

  if (close == NULL || strstr (close, "[REDACTED:") != NULL)
    return NULL;
  prefix = (gsize)(open - expected);
  suffix = strlen (close + 1);
  if (prefix + suffix >= length || strncmp (text, expected, prefix) != 0 ||
      strcmp (text + length - suffix, close + 1) != 0)
    return NULL;
  return g_strndup (text + prefix, length - prefix - suffix);
}

static GPtrArray *
load_secrets (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "core",
                                            "redact-cases.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *secrets = g_ptr_array_new_with_free_func ((GDestroyNotify)secret_free);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_auto (GStrv) fields = NULL;
      g_autofree char *text = NULL;
      g_autofree char *expected = NULL;
      g_autofree char *secret = NULL;
      Secret          *s;

      if (lines[l][0] == '\0' || lines[l][0] == '#')
        continue;
      fields = g_strsplit (lines[l], "\t", 3);
      if (strcmp (fields[1], "=") == 0)
        continue;
      text = g_strcompress (fields[2]);
      expected = g_strcompress (fields[1]);
      if (!g_utf8_validate (text, -1, NULL) || !(secret = secret_of (text, expected)) ||
          strlen (secret) < 8 || g_hash_table_contains (seen, secret))
        continue;
      s = g_new0 (Secret, 1);
      s->family = g_strdup (fields[0]);
      s->secret = g_steal_pointer (&secret);
      s->text = g_steal_pointer (&text);
      g_hash_table_add (seen, s->secret);
      g_ptr_array_add (secrets, s);
    }
  return secrets;
}

static char *
json_quote (const char *text)
{
  g_autoptr (JsonNode) node = json_node_init_string (json_node_alloc (), text);

  return json_to_string (node, FALSE);
}

static void
write_file (const char *path,
            const char *contents,
            gssize      length)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_path_get_dirname (path);

  g_assert_no_errno (g_mkdir_with_parents (folder, 0755));
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
}

static char *
read_file (const char *path,
           gsize      *length)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

static void
add_record (GString    *out,
            const char *type,
            guint       n,
            const char *cwd,
            const char *message)
{
  g_autofree char *cwd_json = json_quote (cwd);
  g_autofree char *parent = n > 1 ? g_strdup_printf ("\"u%05u\"", n - 1) : g_strdup ("null");

  g_string_append_printf (out,
                          "{\"type\":\"%s\",\"uuid\":\"u%05u\",\"parentUuid\":%s,"
                          "\"sessionId\":\"%s\",\"cwd\":%s,"
                          "\"timestamp\":\"2026-05-01T10:%02u:%02u.000Z\",\"message\":%s}\n",
                          type, n, parent, SESSION_ID, cwd_json, (n / 60) % 60, n % 60, message);
}

/* The session: the title's token first, then each secret in a prompt, a reply, a file written
 * and a call's output; the workspace's files last. */
static void
import_session (Fixture *f)
{
  g_autofree char *transcript = g_build_filename (f->root, "claude", "transcript.jsonl", NULL);
  g_autofree char *env = g_build_filename (f->workspace, "config", "service.env", NULL);
  g_autofree char *named = g_build_filename (f->workspace, "keys", TITLE_TOKEN ".txt", NULL);
  g_autoptr (GString) lines = g_string_new (NULL);
  g_autoptr (GString) env_text = g_string_new (NULL);
  g_autoptr (GString) binary = g_string_new ("\x89PNG\r\n\x1a\n");
  guint n = 1;

  {
    g_autofree char *prompt = g_strdup_printf ("Why does the deploy key %s fail on push?",
                                               TITLE_TOKEN);
    g_autofree char *quoted = json_quote (prompt);
    g_autofree char *message = g_strdup_printf ("{\"role\":\"user\",\"content\":%s}", quoted);

    add_record (lines, "user", n++, f->workspace, message);
  }

  for (guint i = 0; i < f->secrets->len; i++)
    {
      Secret          *s = f->secrets->pdata[i];
      g_autofree char *text = json_quote (s->text);
      g_autofree char *path = g_strdup_printf ("%s/notes/%03u.md", f->workspace, i);
      g_autofree char *path_json = json_quote (path);
      g_autofree char *prompt = g_strdup_printf ("{\"role\":\"user\",\"content\":%s}", text);
      g_autofree char *reply = g_strdup_printf (
        "{\"id\":\"msg_%u\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
        "\"content\":[{\"type\":\"text\",\"text\":%s},"
        "{\"type\":\"tool_use\",\"id\":\"toolu_%u\",\"name\":\"Write\","
        "\"input\":{\"file_path\":%s,\"content\":%s}}]}",
        i, text, i, path_json, text);
      g_autofree char *result = g_strdup_printf (
        "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_%u\","
        "\"content\":%s}]}",
        i, text);

      add_record (lines, "user", n++, f->workspace, prompt);
      add_record (lines, "assistant", n++, f->workspace, reply);
      add_record (lines, "user", n++, f->workspace, result);
      g_string_append_printf (env_text, "%s\n", s->text);
      g_string_append (binary, s->text);
      if (i == 0)
        g_string_append_c (binary, '\0');
    }

  /* The workspace's files, which the session reads last. */
  {
    const char *reads[] = { env, named, "assets/logo.png" };

    for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
      {
        g_autofree char *path_json = json_quote (reads[i]);
        g_autofree char *call = g_strdup_printf (
          "{\"id\":\"msg_r%u\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
          "\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_r%u\",\"name\":\"Read\","
          "\"input\":{\"file_path\":%s}}]}",
          i, i, path_json);

        add_record (lines, "assistant", n++, f->workspace, call);
      }
  }
  write_file (env, env_text->str, (gssize)env_text->len);
  write_file (named, "the file's contents are harmless\n", -1);
  {
    g_autofree char *logo = g_build_filename (f->workspace, "assets", "logo.png", NULL);

    write_file (logo, binary->str, (gssize)binary->len);
  }
  write_file (transcript, lines->str, (gssize)lines->len);
  loom_test_store_import_path (&f->base, "claude-code", transcript);
}

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  loom_test_store_set_up (&f->base, data);
  f->dest = g_build_filename (f->base.dir, "packages", NULL);
  g_assert_no_errno (g_mkdir (f->dest, 0700));
  f->root = loom_test_make_tmpdir ();
  f->workspace = g_build_filename (f->root, "workspace", NULL);
  f->secrets = load_secrets ();
  import_session (f);
  {
    g_autoptr (LoomSession) session = loom_test_find_session (f->base.store, SESSION_ID);

    g_assert_nonnull (session);
    f->uuid = g_strdup (loom_session_get_uuid (session));
  }
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  loom_test_remove_tree (f->root);
  g_free (f->root);
  g_free (f->workspace);
  g_free (f->dest);
  g_free (f->uuid);
  g_ptr_array_unref (f->secrets);
  loom_test_store_tear_down (&f->base, data);
}

/* The secret of @f that @data (of @length bytes) holds, or NULL; its family in @family. */
static const char *
find_secret (Fixture     *f,
             const char  *data,
             gsize        length,
             const char **family)
{
  *family = "github-token";
  if (memmem (data, length, TITLE_TOKEN, strlen (TITLE_TOKEN)) != NULL)
    return TITLE_TOKEN;
  for (guint i = 0; i < f->secrets->len; i++)
    {
      const Secret *s = f->secrets->pdata[i];

      *family = s->family;
      if (memmem (data, length, s->secret, strlen (s->secret)) != NULL)
        return s->secret;
    }
  return NULL;
}

/* What a browser shows of the page @html: its text without the tags, entities decoded. A
 * secret escaped in the file ("&amp;" in a URL's query) or cut by markup is found there. */
static char *
page_text (const char *html)
{
  static const char *const entities[][2] = {
    { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" }, { "&#39;", "'" },
  };
  GString *text = g_string_new (NULL);

  for (const char *p = html; *p != '\0'; p++)
    {
      const char *end;

      if (*p == '<' && (end = strchr (p, '>')) != NULL)
        {
          p = end;
          continue;
        }
      g_string_append_c (text, *p);
    }
  for (guint i = 0; i < G_N_ELEMENTS (entities); i++)
    g_string_replace (text, entities[i][0], entities[i][1], 0);
  return g_string_free (text, FALSE);
}

static JsonObject *
read_manifest (const char *package,
               JsonNode  **root)
{
  g_autofree char *path = g_build_filename (package, "manifest.json", NULL);
  g_autofree char *text = read_file (path, NULL);
  g_autoptr (GError) error = NULL;

  *root = json_from_string (text, &error);
  g_assert_no_error (error);
  return json_node_get_object (*root);
}

static JsonObject *
find_artifact (JsonObject *manifest,
               const char *suffix)
{
  JsonArray *artifacts = json_object_get_array_member (manifest, "artifacts");

  for (guint i = 0; i < json_array_get_length (artifacts); i++)
    {
      JsonObject *a = json_array_get_object_element (artifacts, i);

      if (g_str_has_suffix (json_object_get_string_member (a, "path"), suffix))
        return a;
      g_test_message ("artifact %s", json_object_get_string_member (a, "path"));
    }
  g_error ("No artifact ends with “%s”", suffix);
}

static void
test_no_secret_left (Fixture      *f,
                     gconstpointer data)
{
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomExportResult) result = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *tree = NULL;
  g_auto (GStrv) entries = NULL;
  JsonObject *manifest, *redactions, *families;
  const char *family;
  guint       n_files = 0;
  gint64      total = 0;

  g_assert_cmpuint (f->secrets->len, >=, 200);
  options.mode = LOOM_EXPORT_MODE_REDACTED;
  result = loom_test_export_ok (f->base.store, f->uuid, f->dest, &options);
  g_test_message ("%u secrets, %u occurrences replaced", f->secrets->len, result->n_redactions);

  /* The name of the package, and every name and byte in it. */
  g_assert_null (find_secret (f, result->path, strlen (result->path), &family));
  /* The title was cut in the token: not even its fragment is left. */
  g_assert_true (g_str_has_suffix (result->path, "/Why does the deploy key … - 2026-05-01"));
  tree = loom_test_list_tree (result->path, FALSE);
  g_assert_null (find_secret (f, tree, strlen (tree), &family));
  entries = g_strsplit (tree, "\n", -1);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      const char      *found;
      gsize            length;

      if (entries[i][0] == '\0' || g_str_has_suffix (entries[i], "/"))
        continue;
      path = g_build_filename (result->path, entries[i], NULL);
      contents = read_file (path, &length);
      if ((found = find_secret (f, contents, length, &family)) != NULL)
        g_error ("%s holds the %s secret “%s”", entries[i], family, found);
      if (g_str_has_suffix (entries[i], ".html"))
        {
          g_autofree char *shown = page_text (contents);

          if ((found = find_secret (f, shown, strlen (shown), &family)) != NULL)
            g_error ("%s shows the %s secret “%s”", entries[i], family, found);
        }
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, result->n_files);

  manifest = read_manifest (result->path, &root);
  g_assert_cmpstr (json_object_get_string_member (manifest, "mode"), ==, "redacted");
  redactions = json_object_get_object_member (manifest, "redactions");
  g_assert_cmpint (json_object_get_int_member (redactions, "total"), ==, result->n_redactions);
  g_assert_cmpint (json_object_get_int_member (redactions, "secrets"), >=, f->secrets->len);
  families = json_object_get_object_member (redactions, "families");
  g_assert_cmpuint (json_object_get_size (families), >=, 20);
  {
    g_autoptr (GList) members = json_object_get_members (families);

    for (GList *l = members; l != NULL; l = l->next)
      total += json_object_get_int_member (families, l->data);
  }
  g_assert_cmpint (total, ==, result->n_redactions);

  /* What could not be redacted is left out, and says why. */
  g_assert_cmpstr (json_object_get_string_member (find_artifact (manifest, "logo.png"), "status"),
                   ==, "binary");
  g_assert_cmpstr (json_object_get_string_member (
                     find_artifact (manifest, "REDACTED:github-token-1].txt"), "status"),
                   ==, "secret-in-name");
  g_assert_cmpstr (
    json_object_get_string_member (find_artifact (manifest, "service.env"), "status"), ==,
    "copied");
}

/* The same secret reads the same in every file: the title's token is the first secret met,
 * in the folder's name, the conversation, the metadata, the rows and the manifest. */
static void
test_stable_placeholders (Fixture      *f,
                          gconstpointer data)
{
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomExportResult) result = NULL;
  const char *files[] = { "conversation.md", "conversation.html", "session.jsonl",
                          "manifest.json" };
  g_autoptr (JsonNode) metadata = NULL;
  g_autofree char *metadata_path = NULL;
  g_autofree char *metadata_text = NULL;

  options.mode = LOOM_EXPORT_MODE_REDACTED;
  options.detail = LOOM_EXPORT_DETAIL_MESSAGES;
  result = loom_test_export_ok (f->base.store, f->uuid, f->dest, &options);
  metadata_path = g_build_filename (result->path, "metadata.json", NULL);
  metadata_text = read_file (metadata_path, NULL);
  metadata = json_from_string (metadata_text, NULL);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (metadata), "title"), ==,
                   "Why does the deploy key … - 2026-05-01");
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (result->path, files[i], NULL);
      g_autofree char *contents = read_file (path, NULL);

      g_assert_nonnull (strstr (contents, "[REDACTED:github-token-1]"));
      g_assert_null (strstr (contents, TITLE_TOKEN));
    }
}

/* A redacted package is a package: it verifies, and imports back with its placeholders. */
static void
test_imports_back (Fixture      *f,
                   gconstpointer data)
{
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomExportResult) result = NULL;
  g_autoptr (LoomPackageImportResult) imported = NULL;
  g_autoptr (LoomStore) other = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *db = g_build_filename (f->base.dir, "other.sqlite", NULL);

  options.mode = LOOM_EXPORT_MODE_REDACTED;
  result = loom_test_export_ok (f->base.store, f->uuid, f->dest, &options);
  other = loom_store_open (db, &error);
  g_assert_no_error (error);
  g_assert_true (loom_import_package (other, result->path, &imported, NULL, &error));
  g_assert_no_error (error);
  session = loom_test_find_session (other, SESSION_ID);
  g_assert_nonnull (session);
  g_assert_cmpstr (loom_session_get_title (session), ==, "Why does the deploy key … - 2026-05-01");
  {
    g_autoptr (LoomSession) original = loom_test_find_session (f->base.store, SESSION_ID);

    g_assert_cmpint (loom_session_get_record (session)->message_count, ==,
                     loom_session_get_record (original)->message_count);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/export/redacted/no-secret-left", test_no_secret_left);
  ADD ("/export/redacted/stable-placeholders", test_stable_placeholders);
  ADD ("/export/redacted/imports-back", test_imports_back);
#undef ADD

  return g_test_run ();
}
