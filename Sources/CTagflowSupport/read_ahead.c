#define _GNU_SOURCE
#include "tagflow_support.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int tagflow_file_is_cached(const char *path) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return -1;
    struct stat info;
    if (fstat(descriptor, &info) != 0) {
        close(descriptor);
        return -1;
    }
    if (info.st_size == 0) {
        close(descriptor);
        return 1; // nothing to read
    }
    // The first page, mapped and not touched: mincore tells whether it is in memory without
    // reading it (preadv2's RWF_NOWAIT would, but tmpfs does not support it).
    long page = sysconf(_SC_PAGESIZE);
    void *mapped = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, descriptor, 0);
    close(descriptor);
    if (mapped == MAP_FAILED)
        return -1;
#if defined(__APPLE__)
    char residency = 0;
#else
    unsigned char residency = 0;
#endif
    int result = mincore(mapped, (size_t)page, &residency) == 0 ? (residency & 1) : -1;
    munmap(mapped, (size_t)page);
    return result;
}

int tagflow_read_ahead(const char *path) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return -1;
    int result = 0;
#if defined(__linux__)
    result = posix_fadvise(descriptor, 0, 0, POSIX_FADV_WILLNEED);
    if (result != 0) {
        errno = result;
        result = -1;
    }
#elif defined(__APPLE__)
    struct stat info;
    if (fstat(descriptor, &info) == 0 && info.st_size > 0) {
        struct radvisory advice = {.ra_offset = 0, .ra_count = info.st_size > 0x7fffffff ? 0x7fffffff : (int)info.st_size};
        result = fcntl(descriptor, F_RDADVISE, &advice) == -1 ? -1 : 0;
    }
#endif
    int saved = errno;
    close(descriptor);
    errno = saved;
    return result;
}
