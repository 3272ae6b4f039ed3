#ifndef TAGFLOW_SUPPORT_H
#define TAGFLOW_SUPPORT_H

/// Atomically exchanges two paths (both must exist): Linux renameat2(RENAME_EXCHANGE),
/// macOS renamex_np(RENAME_SWAP). Returns 0 on success, -1 with errno set otherwise
/// (ENOSYS/EINVAL where the system or file system cannot do it).
int tagflow_exchange_paths(const char *first, const char *second);

/// Removes a folder and everything in it, without following symbolic links. Many times faster
/// than Foundation's FileManager.removeItem on large trees (plain unlink/rmdir, no per-file
/// attribute reads). Returns 0 on success, -1 with errno set otherwise.
int tagflow_remove_tree(const char *path);

/// tagflow_remove_tree on `threads` threads: the entries two levels down are removed in parallel,
/// then the rest. For a large tree (a built site): deleting is nearly all the kernel's work, which
/// runs on as many cores as there are threads asking. Returns as tagflow_remove_tree does.
int tagflow_remove_tree_in_parallel(const char *path, int threads);

/// Whether the start of the file at `path` is in memory (the page cache): 1 if it is, 0 if
/// reading it would wait for the disk, -1 if that cannot be told (a file that cannot be opened or
/// mapped). Maps its first page and asks mincore; reads nothing, so never waits for the disk.
int tagflow_file_is_cached(const char *path);

/// Asks the system to start reading the file at `path` into memory, without waiting for it
/// (Linux posix_fadvise(POSIX_FADV_WILLNEED), macOS fcntl(F_RDADVISE)). Returns 0, or -1 with
/// errno set.
int tagflow_read_ahead(const char *path);

/// Sets how far glibc's malloc grows a heap beyond each request (mallopt M_TOP_PAD) and the size
/// from which a block is mapped by itself rather than taken from a heap (M_MMAP_THRESHOLD).
/// Returns 0, or -1 where malloc is not glibc's (elsewhere, or under a sanitizer) or it refused.
int tagflow_set_malloc_steps(int top_pad, int mmap_threshold);

/// 1 when this target was compiled with AddressSanitizer, ThreadSanitizer or MemorySanitizer.
int tagflow_is_sanitized(void);

#endif
