// libc calls that Swift's Glibc module does not expose, because their
// declarations sit behind _GNU_SOURCE or in headers it does not import.
#ifndef PERCH_SYSTEM_H
#define PERCH_SYSTEM_H

#include <stdint.h>
#include <sys/types.h>

// memfd_create(2) with MFD_CLOEXEC | MFD_ALLOW_SEALING.
int perch_memfd_create(const char *name);

// timerfd_create(2): CLOCK_MONOTONIC, non-blocking, close-on-exec.
int perch_timerfd_create(void);
// Arms the timer for an absolute CLOCK_MONOTONIC instant in nanoseconds;
// 0 disarms it.
int perch_timerfd_arm_absolute(int fd, uint64_t monotonic_ns);

// Blocks SIGINT, SIGTERM, SIGHUP (and SIGCHLD) for the process and returns
// a non-blocking signalfd that reports them. SIGPIPE is ignored.
int perch_signalfd_create(void);
// Reads one pending signal from the signalfd: its number, 0 when none is
// pending, -1 on error (errno set).
int perch_signalfd_read(int fd);

// The peer's uid on a connected Unix socket (SO_PEERCRED); -1 on error.
int perch_peer_uid(int fd, uid_t *uid);

// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; -1 on error.
int perch_accept_nonblocking(int listener);

// CLOCK_MONOTONIC in nanoseconds.
uint64_t perch_monotonic_ns(void);

// Restores default signal handling and an empty mask in a child before exec.
void perch_reset_signals_for_child(void);

#endif
