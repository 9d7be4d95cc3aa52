// The daemon's half of SVG rendering: run the perch-svg helper on one
// document and read back its pixels, within a deadline.
#define _GNU_SOURCE
#include "CRsvg.h"
#include "perch-svg-protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// Address space for the helper: librsvg, ICU and fontconfig map about
// 150 MB before drawing anything; an ordinary icon peaks well under 100 MB
// more. A document that wants more fails its allocation there.
static const rlim_t helper_address_space = 768ul << 20;
// Backs up the wall-clock deadline (a stopped parent cannot kill it).
static const rlim_t helper_cpu_seconds = 4;

__attribute__((format(printf, 3, 4)))
static void say(char *message, size_t size, const char *format, ...) {
    if (!message || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, size, format, arguments);
    va_end(arguments);
}

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static bool write_all(int fd, const uint8_t *data, size_t length) {
    while (length > 0) {
        ssize_t done = write(fd, data, length);
        if (done < 0 && errno == EINTR) continue;
        if (done <= 0) return false;
        data += done;
        length -= (size_t)done;
    }
    return true;
}

// Between fork and exec only async-signal-safe calls: the parent may be
// multi-threaded (the test runner is), and another thread may hold a lock.
static void run_helper(const char *helper, int input, int output, const char *box) {
    if (dup2(input, STDIN_FILENO) < 0 || dup2(output, STDOUT_FILENO) < 0) _exit(PERCH_SVG_EXIT_SETUP);
    // librsvg's and Rust's complaints about a hostile file would end up in
    // the daemon's journal; what matters comes back on stdout.
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, STDERR_FILENO);
    // Nothing else of the daemon's (its Wayland and bus connections) for a
    // process that parses hostile input, whether or not it is close-on-exec.
    close_range(STDERR_FILENO + 1, ~0u, 0);
    // The daemon blocks the signals its signalfd reads and ignores SIGPIPE;
    // both would be inherited across exec.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction standard = {.sa_handler = SIG_DFL};
    sigaction(SIGPIPE, &standard, NULL);
    struct rlimit space = {helper_address_space, helper_address_space};
    struct rlimit cpu = {helper_cpu_seconds, helper_cpu_seconds};
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_AS, &space);
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_CORE, &core);
    char *const argv[] = {(char *)"perch-svg", (char *)box, NULL};
    execv(helper, argv);
    _exit(PERCH_SVG_EXIT_EXEC);
}

// Reads until `length` bytes, end of file or the deadline. Returns the
// count read, or -1 at the deadline.
static long read_until(int fd, uint8_t *buffer, size_t length, long long deadline) {
    size_t done = 0;
    while (done < length) {
        long long left = deadline - now_ms();
        if (left <= 0) return -1;
        struct pollfd ready = {.fd = fd, .events = POLLIN};
        int polled = poll(&ready, 1, (int)left);
        if (polled < 0 && errno == EINTR) continue;
        if (polled == 0) return -1;
        if (polled < 0) break;
        ssize_t got = read(fd, buffer + done, length - done);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) break;
        done += (size_t)got;
    }
    return (long)done;
}

// Collects the helper, killing it when it is still running at the
// deadline (it may close stdout and go on). Returns the wait status.
static int reap(pid_t pid, long long deadline) {
    int status = 0;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) return status;
        if (done < 0 && errno != EINTR) return 0;
        if (now_ms() >= deadline) break;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return status;
}

static void explain_exit(int status, const char *helper, bool timed_out, int timeout_ms,
                         char *message, size_t size) {
    if (timed_out) {
        say(message, size, "rendering took longer than %d ms", timeout_ms);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) {
        say(message, size, "rendering took more than %d s of CPU time", (int)helper_cpu_seconds);
    } else if (WIFSIGNALED(status)) {
        // SIGABRT is what a failed allocation under the limit, or a panic
        // in librsvg, ends with.
        say(message, size, "the renderer died (%s)", strsignal(WTERMSIG(status)));
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == PERCH_SVG_EXIT_EXEC) {
        say(message, size, "cannot run %s", helper);
    } else {
        say(message, size, "the renderer %s stopped without an image (exit %d)", helper,
            WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

bool perch_svg_render_isolated(const char *helper, const uint8_t *data, size_t length, int box,
                               int timeout_ms, uint32_t *pixels, int *width, int *height,
                               char *message, size_t size) {
    if (box < 1 || box > PERCH_SVG_MAX_BOX) {
        say(message, size, "a box of %d px is out of range", box);
        return false;
    }
    long long deadline = now_ms() + timeout_ms;
    // A memfd rather than a pipe: the helper reads the document at its own
    // pace and the daemon never blocks writing it.
    int input = memfd_create("perch-svg-document", MFD_CLOEXEC);
    if (input < 0 || !write_all(input, data, length) || lseek(input, 0, SEEK_SET) != 0) {
        say(message, size, "cannot pass the document to the renderer: %s", strerror(errno));
        if (input >= 0) close(input);
        return false;
    }
    int channel[2];
    if (pipe2(channel, O_CLOEXEC) != 0) {
        say(message, size, "cannot start the renderer: %s", strerror(errno));
        close(input);
        return false;
    }
    char box_text[16];
    snprintf(box_text, sizeof box_text, "%d", box);
    pid_t pid = fork();
    if (pid == 0) run_helper(helper, input, channel[1], box_text);
    int fork_error = errno;
    close(input);
    close(channel[1]);
    if (pid < 0) {
        close(channel[0]);
        say(message, size, "cannot start the renderer: %s", strerror(fork_error));
        return false;
    }

    bool ok = false, explained = false;
    PerchSVGReplyHeader header;
    long got = read_until(channel[0], (uint8_t *)&header, sizeof header, deadline);
    bool timed_out = got < 0;
    if (got == (long)sizeof header && header.magic == PERCH_SVG_REPLY_IMAGE) {
        if (header.width < 1 || header.height < 1 || header.width > box || header.height > box) {
            say(message, size, "the renderer sent a %d×%d image for a %d px box",
                (int)header.width, (int)header.height, box);
            explained = true;
        } else {
            size_t bytes = (size_t)header.width * (size_t)header.height * 4;
            got = read_until(channel[0], (uint8_t *)pixels, bytes, deadline);
            timed_out = got < 0;
            ok = got == (long)bytes;
            *width = header.width;
            *height = header.height;
        }
    } else if (got == (long)sizeof header && header.magic == PERCH_SVG_REPLY_ERROR) {
        char text[256] = {0};
        size_t count = header.width > 0 && (size_t)header.width < sizeof text ? (size_t)header.width
                                                                             : sizeof text - 1;
        got = read_until(channel[0], (uint8_t *)text, count, deadline);
        timed_out = got < 0;
        if (got >= 0) {
            text[got] = 0;
            say(message, size, "%s", text);
            explained = true;
        }
    }
    close(channel[0]);
    // At the deadline the helper is killed at once; otherwise it is about
    // to exit and gets the rest of the time to do so.
    int status = reap(pid, timed_out ? now_ms() : deadline);
    if (!ok && !explained) explain_exit(status, helper, timed_out, timeout_ms, message, size);
    return ok;
}
