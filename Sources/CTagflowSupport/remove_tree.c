#define _GNU_SOURCE
#include "tagflow_support.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
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
