#define _GNU_SOURCE
#include "CPerchSystem.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

int perch_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int perch_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

int perch_timerfd_arm_absolute(int fd, uint64_t monotonic_ns) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)(monotonic_ns / 1000000000ull);
    spec.it_value.tv_nsec = (long)(monotonic_ns % 1000000000ull);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int perch_wall_timerfd_create(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

int perch_wall_timerfd_arm(int fd, int64_t unix_seconds) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)(unix_seconds > 0 ? unix_seconds : 1);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int perch_timerfd_drain(int fd) {
    uint64_t expirations;
    ssize_t n = read(fd, &expirations, sizeof expirations);
    if (n == (ssize_t)sizeof expirations) return 1;
    if (n < 0 && errno == ECANCELED) return 2;
    return 0;
}

static void perch_signal_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGCHLD);
}

int perch_signalfd_create(void) {
    sigset_t set;
    perch_signal_set(&set);
    // A client that disconnects mid-write must not kill the daemon.
    signal(SIGPIPE, SIG_IGN);
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int perch_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n == (ssize_t)sizeof info) return (int)info.ssi_signo;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    if (n >= 0) errno = EIO;
    return -1;
}

int perch_peer_uid(int fd, uid_t *uid) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *uid = cred.uid;
    return 0;
}

int perch_peer_credentials(int fd, pid_t *pid, uid_t *uid) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    return 0;
}

int perch_accept_nonblocking(int listener) {
    return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

uint64_t perch_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void perch_reset_signals_for_child(void) {
    sigset_t set;
    sigemptyset(&set);
    sigprocmask(SIG_SETMASK, &set, NULL);
    signal(SIGPIPE, SIG_DFL);
}

#include <fcntl.h>
#include <spawn.h>

// No blocked or ignored signal survives into a child: the daemon blocks
// what its signalfd reads and ignores SIGPIPE, and while exec resets
// handlers, a mask and SIG_IGN would be inherited. Every catchable signal
// goes back to SIG_DFL; `flags` are the caller's other POSIX_SPAWN_ flags.
static int clean_signals(posix_spawnattr_t *attr, short flags) {
    sigset_t empty, all;
    sigemptyset(&empty);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    int err = posix_spawnattr_setsigmask(attr, &empty);
    if (err == 0) err = posix_spawnattr_setsigdefault(attr, &all);
    if (err == 0) err = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | flags);
    return err;
}

int perch_spawn_hook(pid_t *pid, const char *file, char *const argv[], char *const envp[]) {
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t actions;
    int err = posix_spawnattr_init(&attr);
    if (err != 0) return err;
    err = posix_spawn_file_actions_init(&actions);
    if (err != 0) {
        posix_spawnattr_destroy(&attr);
        return err;
    }
    if (err == 0) err = posix_spawnattr_setpgroup(&attr, 0);
    if (err == 0) err = clean_signals(&attr, POSIX_SPAWN_SETPGROUP);
    if (err == 0) err = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    // Descriptors are opened close-on-exec, but libraries (fontconfig,
    // D-Bus, Wayland) are not ours to audit: close the rest for sure.
    if (err == 0) err = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    if (err == 0) err = posix_spawnp(pid, file, &actions, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    return err;
}

static int spawn_piped(pid_t *pid, const char *file, char *const argv[], int *to_child, int *from_child,
                       int own_group) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) return errno;
    if (pipe2(out, O_CLOEXEC) != 0) {
        int saved = errno;
        close(in[0]);
        close(in[1]);
        return saved;
    }
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t actions;
    int err = posix_spawnattr_init(&attr);
    if (err != 0) {
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return err;
    }
    err = posix_spawn_file_actions_init(&actions);
    if (err == 0 && own_group) err = posix_spawnattr_setpgroup(&attr, 0);
    if (err == 0) err = clean_signals(&attr, own_group ? POSIX_SPAWN_SETPGROUP : 0);
    if (err == 0) err = posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    if (err == 0) err = posix_spawn_file_actions_adddup2(&actions, out[1], 1);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    if (err == 0) err = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    if (err == 0) err = posix_spawnp(pid, file, &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(in[0]);
    close(out[1]);
    if (err != 0) {
        close(in[1]);
        close(out[0]);
        return err;
    }
    *to_child = in[1];
    *from_child = out[0];
    return 0;
}

int perch_spawn_piped(pid_t *pid, const char *file, char *const argv[], int *to_child, int *from_child) {
    return spawn_piped(pid, file, argv, to_child, from_child, 0);
}

int perch_spawn_piped_group(pid_t *pid, const char *file, char *const argv[], int *to_child, int *from_child) {
    return spawn_piped(pid, file, argv, to_child, from_child, 1);
}

int perch_spawn_channel(pid_t *pid, const char *file, char *const argv[], int *channel) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) return errno;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t actions;
    int err = posix_spawnattr_init(&attr);
    if (err != 0) {
        close(pair[0]);
        close(pair[1]);
        return err;
    }
    err = posix_spawn_file_actions_init(&actions);
    if (err == 0) err = clean_signals(&attr, 0);
    if (err == 0) err = posix_spawn_file_actions_adddup2(&actions, pair[1], 0);
    if (err == 0) err = posix_spawn_file_actions_adddup2(&actions, pair[1], 1);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    if (err == 0) err = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    if (err == 0) err = posix_spawn(pid, file, &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(pair[1]);
    if (err != 0) {
        close(pair[0]);
        return err;
    }
    int flags = fcntl(pair[0], F_GETFL);
    if (flags >= 0) fcntl(pair[0], F_SETFL, flags | O_NONBLOCK);
    *channel = pair[0];
    return 0;
}

long perch_send_message(int socket, const void *data, size_t length, int fd, int wait) {
    struct iovec part = {.iov_base = (void *)data, .iov_len = length};
    union {
        char space[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.space;
        message.msg_controllen = sizeof control.space;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof fd);
    }
    for (;;) {
        ssize_t sent = sendmsg(socket, &message, (wait ? 0 : MSG_DONTWAIT) | MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        return (long)sent;
    }
}

long perch_receive_message(int socket, void *buffer, size_t size, int *fd) {
    *fd = -1;
    struct iovec part = {.iov_base = buffer, .iov_len = size};
    union {
        char space[CMSG_SPACE(4 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                             .msg_controllen = sizeof control.space};
    ssize_t got;
    do {
        got = recvmsg(socket, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int received;
            memcpy(&received, CMSG_DATA(header) + i * sizeof(int), sizeof received);
            if (*fd < 0) {
                *fd = received;
            } else {
                close(received);
            }
        }
    }
    // Descriptors cut off for want of room (MSG_CTRUNC) are closed by the kernel.
    if (message.msg_flags & MSG_TRUNC) return (long)size + 1;
    return (long)got;
}

char **perch_environ(void) {
    return environ;
}

int perch_file_system_type(const char *path, long *type) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    *type = (long)info.f_type;
    return 0;
}

int perch_release_free_heap(void) {
    return malloc_trim(0);
}

int perch_kernel_file_system(int fd) {
    struct statfs where;
    if (fstatfs(fd, &where) != 0) return 0;
    if (where.f_type == 0x9fa0) return 1;      // PROC_SUPER_MAGIC
    if (where.f_type == 0x62656572) return 2;  // SYSFS_MAGIC
    return 0;
}
