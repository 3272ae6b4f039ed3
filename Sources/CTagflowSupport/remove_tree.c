#define _GNU_SOURCE
#include "tagflow_support.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Children before parents (FTW_DEPTH), never following symbolic links (FTW_PHYS): a link is
// removed, not what it points to.
static int remove_entry(const char *path, const struct stat *info, int type, struct FTW *position) {
    (void)info;
    (void)position;
    int result = (type == FTW_DP || type == FTW_D) ? rmdir(path) : unlink(path);
    return (result == 0 || errno == ENOENT) ? 0 : -1;
}

int tagflow_remove_tree(const char *path) {
    return nftw(path, remove_entry, 64, FTW_DEPTH | FTW_PHYS);
}

// A growable list of paths.
struct paths {
    char **items;
    size_t count;
    size_t capacity;
};

// Writes `folder/name` into `path`; -1 when it does not fit (a cut path could name another
// folder, so the caller gives up on sharing the work out rather than use it).
static int join(char *path, size_t size, const char *folder, const char *name) {
    int length = snprintf(path, size, "%s/%s", folder, name);
    return length < 0 || (size_t)length >= size ? -1 : 0;
}

static int paths_add(struct paths *list, const char *path) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 256;
        char **items = realloc(list->items, capacity * sizeof(char *));
        if (!items) return -1;
        list->items = items;
        list->capacity = capacity;
    }
    char *copy = strdup(path);
    if (!copy) return -1;
    list->items[list->count++] = copy;
    return 0;
}

static void paths_free(struct paths *list) {
    for (size_t index = 0; index < list->count; index++) free(list->items[index]);
    free(list->items);
}

// Whether the entry at `path` is a folder itself (not a link to one).
static int is_folder(const char *path, const struct dirent *entry) {
    if (entry->d_type == DT_DIR) return 1;
    if (entry->d_type != DT_UNKNOWN) return 0;
    struct stat info;
    return lstat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

// Adds the entries of `folder` to `list`; with `depth` 2, the entries of its folders instead of
// the folders themselves.
static int collect(struct paths *list, const char *folder, int depth) {
    DIR *directory = opendir(folder);
    if (!directory) return -1;
    int result = 0;
    struct dirent *entry;
    char path[4096];
    while (result == 0 && (entry = readdir(directory)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        result = join(path, sizeof path, folder, entry->d_name);
        if (result != 0) break;
        result = depth > 1 && is_folder(path, entry) ? collect(list, path, depth - 1) : paths_add(list, path);
    }
    closedir(directory);
    return result;
}

struct removal {
    struct paths *list;
    atomic_size_t next;
};

static void *remove_some(void *argument) {
    struct removal *removal = argument;
    for (;;) {
        // Taken 32 at a time, so that the threads rarely touch the counter.
        size_t start = atomic_fetch_add(&removal->next, 32);
        if (start >= removal->list->count) break;
        size_t end = start + 32 < removal->list->count ? start + 32 : removal->list->count;
        for (size_t index = start; index < end; index++) tagflow_remove_tree(removal->list->items[index]);
    }
    return NULL;
}

int tagflow_remove_tree_in_parallel(const char *path, int threads) {
    // A link is removed, never what it leads to: listing it would list the linked folder.
    struct stat info;
    if (lstat(path, &info) != 0 || !S_ISDIR(info.st_mode)) return tagflow_remove_tree(path);
    struct paths list = {0};
    if (threads > 1 && collect(&list, path, 2) == 0 && list.count >= 64) {
        struct removal removal = {.list = &list};
        atomic_init(&removal.next, 0);
        pthread_t *workers = calloc((size_t)threads - 1, sizeof(pthread_t));
        int started = 0;
        if (workers) {
            while (started < threads - 1 && pthread_create(&workers[started], NULL, remove_some, &removal) == 0)
                started++;
        }
        remove_some(&removal);
        for (int index = 0; index < started; index++) pthread_join(workers[index], NULL);
        free(workers);
    }
    paths_free(&list);
    // What is left (the folders, or everything when the listing failed or the tree is small),
    // and the errors to report.
    return tagflow_remove_tree(path);
}
