// SPDX-License-Identifier: GPL-2.0-only
/* Fake system trees for the host backend's tests: each test works on its
 * own copy of a fixture under tests/fixtures/host/. */
#ifndef PMLAB_HOST_TREES_H
#define PMLAB_HOST_TREES_H

#define HOST_FIXTURES PMLAB_SOURCE_ROOT "/tests/fixtures/host/"

/* Runs a shell command built like printf; its exit status, -1 if killed. */
int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A fresh temporary copy of fixture `name`; free with drop_tree(). */
char *copy_tree(const char *name);
void drop_tree(char *dir);
/* dir/rel := text (its directories made first); dir/rel's text, NULL if
 * none (a static buffer, 4 KiB at most). */
void tree_put(const char *dir, const char *rel, const char *text);
char *tree_get(const char *dir, const char *rel);

#endif
