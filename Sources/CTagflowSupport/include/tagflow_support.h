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

#endif
