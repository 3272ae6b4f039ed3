#ifndef TAGFLOW_THREADS_H
#define TAGFLOW_THREADS_H

/// Starts `body(context)` on a new, detached thread with the system's default stack. Returns 0;
/// otherwise (pthread_create's error number, such as EAGAIN at a process or container limit, or
/// -1 when memory runs out) `body` never runs.
int tagflow_start_thread(void (*body)(void *), void *context);

/// Names the calling thread for `top -H`, `perf` and debuggers (at most 15 bytes on Linux; a
/// longer name is refused). Returns 0, or an error number.
int tagflow_name_current_thread(const char *name);

#endif
