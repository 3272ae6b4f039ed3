#define _GNU_SOURCE
#include "tagflow_support.h"

#include <pthread.h>

int tagflow_name_current_thread(const char *name) {
#if defined(__APPLE__)
    return pthread_setname_np(name);
#elif defined(__linux__)
    return pthread_setname_np(pthread_self(), name);
#else
    (void)name;
    return 0;
#endif
}
