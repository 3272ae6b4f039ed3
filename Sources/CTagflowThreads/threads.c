#define _GNU_SOURCE
#include "tagflow_threads.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
    void (*body)(void *);
    void *context;
} thread_start;

static void *run_thread(void *argument) {
    thread_start start = *(thread_start *)argument;
    free(argument);
    start.body(start.context);
    return NULL;
}

int tagflow_start_thread(void (*body)(void *), void *context) {
    thread_start *start = malloc(sizeof *start);
    if (!start)
        return -1;
    start->body = body;
    start->context = context;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) {
        free(start);
        return -1;
    }
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int result = pthread_create(&thread, &attributes, run_thread, start);
    pthread_attr_destroy(&attributes);
    if (result != 0) {
        free(start);
        return result;
    }
    return 0;
}

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
