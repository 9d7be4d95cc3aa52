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

// timerfd_create(2) on CLOCK_REALTIME (wall-clock time: a suspend counts),
// non-blocking, close-on-exec.
int perch_wall_timerfd_create(void);
// Arms it for an absolute Unix time in seconds, cancelled when the clock
// is set (the read then says so: see perch_timerfd_drain).
int perch_wall_timerfd_arm(int fd, int64_t unix_seconds);
// Reads a timerfd: 1 when it expired, 2 when the clock was set under it
// (TFD_TIMER_CANCEL_ON_SET), 0 for nothing.
int perch_timerfd_drain(int fd);

// Blocks SIGINT, SIGTERM, SIGHUP (and SIGCHLD) for the process and returns
// a non-blocking signalfd that reports them. SIGPIPE is ignored.
int perch_signalfd_create(void);
// Reads one pending signal from the signalfd: its number, 0 when none is
// pending, -1 on error (errno set).
int perch_signalfd_read(int fd);

// The peer's uid on a connected Unix socket (SO_PEERCRED); -1 on error.
int perch_peer_uid(int fd, uid_t *uid);
// The peer's pid and uid on a connected Unix socket (SO_PEERCRED), as they
// were when it connected or listened; -1 on error.
int perch_peer_credentials(int fd, pid_t *pid, uid_t *uid);

// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; -1 on error.
int perch_accept_nonblocking(int listener);

// The file system `fd` lives on, where it is the kernel's own: 1 for
// procfs, 2 for sysfs, 0 for any other (and when fstatfs fails).
// <sys/vfs.h> is not part of Swift's Glibc module.
int perch_kernel_file_system(int fd);

// malloc_trim(0): gives the pages of freed heap memory back to the kernel.
// Returns 1 when some were released.
int perch_release_free_heap(void);

// What perch_release_file_pages did, in mappings.
struct perch_release_summary {
    int released;  // its pages taken out of this process's page tables
    int kept;      // read-only, but holding a private copy of a page: left alone
    int failed;    // madvise refused
};

// Takes the pages of every read-only file mapping of this process (its
// code and read-only data, its libraries', font files, fontconfig's
// caches) out of its page tables with MADV_DONTNEED; the next access maps
// them again from the page cache. A mapping with any private (anonymous)
// page in it, as /proc/self/pagemap tells, is left alone, as are writable
// mappings, device files and anonymous memory. Returns 0, or a negative
// errno when /proc/self/maps or /proc/self/pagemap cannot be read (then
// nothing is released). See mappings.c.
int perch_release_file_pages(struct perch_release_summary *summary);

// CLOCK_MONOTONIC in nanoseconds.
uint64_t perch_monotonic_ns(void);

// Restores default signal handling and an empty mask in a child before exec.
void perch_reset_signals_for_child(void);

// Starts a hook with posix_spawnp(3) (`file` is looked up in the daemon's
// PATH when it has no slash): every signal at its default disposition and
// an empty signal mask (the daemon blocks SIGINT/TERM/HUP/CHLD for its
// signalfd and ignores SIGPIPE; exec would pass both on), a process group
// of its own (so a timeout can kill the hook's children too), stdin from
// /dev/null, stdout and stderr shared with the daemon, no other descriptor.
// `argv` and `envp` are NULL-terminated. Returns 0 and sets *pid, or an
// errno value (glibc reports a failed exec, e.g. ENOENT, here).
int perch_spawn_hook(pid_t *pid, const char *file, char *const argv[], char *const envp[]);

// Starts `argv` (file looked up in PATH) with its stdin and stdout on
// pipes, stderr shared, the caller's environment, no blocked or ignored
// signals and no other descriptor: the dmenu-like program of `perchctl
// menu`, the daemon's perch-sound. Sets *pid, *to_child (write end of its stdin) and
// *from_child (read end of its stdout), both close-on-exec. Returns 0, or
// an errno value (nothing is left open then).
int perch_spawn_piped(pid_t *pid, const char *file, char *const argv[], int *to_child, int *from_child);

// perch_spawn_piped in a process group of its own (its id is *pid), so
// that what it starts is killed with it: the daemon's menu program, which
// may outlive its time limit.
int perch_spawn_piped_group(pid_t *pid, const char *file, char *const argv[], int *to_child, int *from_child);

// Starts `argv` (`file` a path) with its stdin and stdout both on one end
// of a SOCK_SEQPACKET socket pair (a message per write, descriptors can
// travel with SCM_RIGHTS), stderr shared, the caller's environment, no
// blocked or ignored signals and no other descriptor: the daemon's
// helpers (perch-svg --serve, perch-sound). Sets *pid and *channel (the
// daemon's end, close-on-exec and non-blocking). Returns 0, or an errno
// value (nothing is left open then).
int perch_spawn_channel(pid_t *pid, const char *file, char *const argv[], int *channel);

// Sends one message of `length` bytes on a SOCK_SEQPACKET socket, with the
// descriptor `fd` attached when it is not negative (SCM_RIGHTS); without
// waiting unless `wait` is not 0 (a helper's own end; the daemon never
// waits). Returns the bytes sent or -1 with errno (EAGAIN: full).
long perch_send_message(int socket, const void *data, size_t length, int fd, int wait);

// Receives one message into `buffer` (a longer one is cut: MSG_TRUNC is
// reported by a return of `size` + 1), without waiting. Sets *fd to the
// first descriptor that came with it (close-on-exec), or -1; any further
// ones are closed. Returns the length, 0 at end of file, -1 with errno.
long perch_receive_message(int socket, void *buffer, size_t size, int *fd);

// statfs(2)'s f_type for `path` (the file system's magic number, e.g.
// 0x65735546 for FUSE) in *type; 0, or -1 with errno.
int perch_file_system_type(const char *path, long *type);

// The process environment (`environ`); NULL after clearenv(3). Swift's
// Glibc imports `environ` as non-optional, which a NULL would break.
char **perch_environ(void);

#endif
