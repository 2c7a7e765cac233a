"""The fixed source text the batch programs are built from: the C++ runtime and dispatcher, and the Java runtime
package (node classes, coverage probe, runner).

Results go to ``dt_results.txt``, one line per fact, appended with single ``write`` calls so that a variant that
crashes mid-call never leaves half a line: ``T id test cpu_us json`` (a call returned), ``C id test l1,l2,...`` (the
lines it ran, for instrumented variants), ``E id test Type line message`` (it threw), ``X id test signal line`` (it
was stopped: a crash or an overrun, with the last line it started), ``K id test signal`` (the dispatcher saw the
variant die without a word).
"""

from __future__ import annotations

CPP_RUNTIME = r"""
#include <cxxabi.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

static const int DT_MAX_LINE = 1 << 14;
static unsigned char dt_cov[DT_MAX_LINE];
static volatile int dt_last_line = 0;
static volatile int dt_current_id = -1;
static volatile int dt_current_test = -1;
static int dt_out = -1;
static volatile int* dt_progress = nullptr;
static char* dt_stack_top = nullptr;
static size_t dt_stack_room = 0;

// the sanitizer stops a program by abort(), not exit(1): the signal handler then still writes the lines the call
// ran and the last one it started
extern "C" const char* __ubsan_default_options() { return "abort_on_error=1:print_stacktrace=0"; }

static inline void dt_probe_(int line) {
    if (line > 0 && line < DT_MAX_LINE) dt_cov[line] = 1;
    dt_last_line = line;
}

static void dt_write(const std::string& text) {
    const char* data = text.data();
    size_t left = text.size();
    while (left > 0) {
        ssize_t done = write(dt_out, data, left);
        if (done <= 0) return;
        data += done;
        left -= (size_t)done;
    }
}

static char* dt_itoa(long value, char* end) {
    // async-signal-safe number formatting, written backwards from ``end``
    bool negative = value < 0;
    unsigned long v = negative ? (unsigned long)(-value) : (unsigned long)value;
    do { *--end = (char)('0' + v % 10); v /= 10; } while (v);
    if (negative) *--end = '-';
    return end;
}

static char dt_signal_text[DT_MAX_LINE * 6 + 64];

static void dt_write_coverage_unsafe() {
    // called from the signal handler: only write() and hand-made formatting
    char* p = dt_signal_text;
    *p++ = 'C';
    *p++ = ' ';
    char number[24];
    char* end = number + sizeof number;
    char* q = dt_itoa(dt_current_id, end);
    while (q < end) *p++ = *q++;
    *p++ = ' ';
    q = dt_itoa(dt_current_test, end);
    while (q < end) *p++ = *q++;
    *p++ = ' ';
    bool any = false;
    for (int line = 1; line < DT_MAX_LINE; line++) {
        if (!dt_cov[line]) continue;
        if (any) *p++ = ',';
        q = dt_itoa(line, end);
        while (q < end) *p++ = *q++;
        any = true;
    }
    *p++ = '\n';
    if (any) {
        ssize_t ignored = write(dt_out, dt_signal_text, (size_t)(p - dt_signal_text));
        (void)ignored;
    }
}

static void dt_on_signal(int sig) {
    if ((sig == SIGPROF || sig == SIGALRM || sig == SIGXCPU) && dt_stack_top && dt_stack_room) {
        // these run on the stack they interrupted: a call stopped for its time with most of the stack used is a
        // recursion that never ends and would have overflowed it (on a loaded machine the page faults of filling
        // the stack can take the per-test budget, and the same program would be a crash or a timeout by load)
        char here;
        if ((size_t)(dt_stack_top - &here) > dt_stack_room / 2) sig = SIGSEGV;
    }
    dt_write_coverage_unsafe();
    char buffer[128];
    char* end = buffer + sizeof buffer;
    char* p = end;
    *--p = '\n';
    p = dt_itoa(dt_last_line, p);
    *--p = ' ';
    p = dt_itoa(sig, p);
    *--p = ' ';
    p = dt_itoa(dt_current_test, p);
    *--p = ' ';
    p = dt_itoa(dt_current_id, p);
    *--p = ' ';
    *--p = 'X';
    ssize_t ignored = write(dt_out, p, (size_t)(end - p));
    (void)ignored;
    _exit(128 + sig);
}

static std::string dt_type_name(const char* mangled) {
    int status = 0;
    char* name = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string out = status == 0 && name ? name : mangled;
    free(name);
    for (char& c : out) if (c == ' ') c = '_';
    return out;
}

static std::string dt_one_line(std::string text) {
    for (char& c : text) if (c == '\n' || c == '\r') c = ' ';
    return text.substr(0, 300);
}

static void dt_child(int index, int first, int tests, long per_test_us, long wall_per_test_s) {
    int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) dup2(null_fd, 1);
    static char alternate[1 << 16];
    stack_t stack_info;
    stack_info.ss_sp = alternate;
    stack_info.ss_size = sizeof alternate;
    stack_info.ss_flags = 0;
    sigaltstack(&stack_info, nullptr);
    char top;
    dt_stack_top = &top;
    struct rlimit stack_limit;
    if (getrlimit(RLIMIT_STACK, &stack_limit) == 0 && stack_limit.rlim_cur != RLIM_INFINITY)
        dt_stack_room = (size_t)stack_limit.rlim_cur;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = dt_on_signal;
    action.sa_flags = SA_ONSTACK;
    for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL})
        sigaction(sig, &action, nullptr);
    // the time signals run on the interrupted stack, where the handler can tell how deep the call went (should the
    // stack be too full for the handler itself, that is an overflow, handled on the alternate stack)
    action.sa_flags = 0;
    for (int sig : {SIGPROF, SIGALRM, SIGXCPU})
        sigaction(sig, &action, nullptr);
    dt_current_id = dt_ids[index];
    for (int test = first; test < tests; test++) {
        *dt_progress = test;
        dt_current_test = test;
        dt_last_line = 0;
        memset(dt_cov, 0, sizeof dt_cov);
        std::string name = "dt_err_" + std::to_string(dt_ids[index]) + "_" + std::to_string(test);
        int err_fd = open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (err_fd >= 0) { dup2(err_fd, 2); close(err_fd); }
        struct itimerval budget;
        memset(&budget, 0, sizeof budget);
        budget.it_value.tv_sec = per_test_us / 1000000;
        budget.it_value.tv_usec = per_test_us % 1000000;
        setitimer(ITIMER_PROF, &budget, nullptr);
        alarm((unsigned)wall_per_test_s);
        clock_t started = clock();
        std::string head = std::to_string(dt_ids[index]) + " " + std::to_string(test) + " ";
        try {
            std::string json = dt_table[index](test);
            long used = (long)((double)(clock() - started) * 1e6 / CLOCKS_PER_SEC);
            dt_write("T " + head + std::to_string(used) + " " + json + "\n");
        } catch (const std::exception& error) {
            dt_write("E " + head + dt_type_name(typeid(error).name()) + " " + std::to_string(dt_last_line) + " "
                     + dt_one_line(error.what()) + "\n");
        } catch (...) {
            dt_write("E " + head + "unknown " + std::to_string(dt_last_line) + " a non-standard exception\n");
        }
        memset(&budget, 0, sizeof budget);
        setitimer(ITIMER_PROF, &budget, nullptr);
        alarm(0);
        std::string covered;
        for (int line = 1; line < DT_MAX_LINE; line++)
            if (dt_cov[line]) covered += (covered.empty() ? "" : ",") + std::to_string(line);
        if (!covered.empty()) dt_write("C " + head + covered + "\n");
    }
    *dt_progress = tests;
}

int main(int argc, char** argv) {
    if (argc < 4) return 2;
    int tests = atoi(argv[1]);
    long per_test_us = atol(argv[2]);
    long wall_per_test_s = atol(argv[3]);
    dt_out = open("dt_results.txt", O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (dt_out < 0) return 3;
    void* shared = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) return 4;
    dt_progress = (volatile int*)shared;
    int count = (int)(sizeof dt_ids / sizeof dt_ids[0]);
    for (int index = 0; index < count; index++) {
        int first = 0;
        while (first < tests) {
            *dt_progress = first;
            pid_t child = fork();
            if (child < 0) return 5;
            if (child == 0) {
                dt_child(index, first, tests, per_test_us, wall_per_test_s);
                _exit(0);
            }
            int status = 0;
            waitpid(child, &status, 0);
            int reached = *dt_progress;
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && reached >= tests) break;
            int sig = WIFSIGNALED(status) ? WTERMSIG(status) : (WIFEXITED(status) ? WEXITSTATUS(status) - 128 : 0);
            dt_write("K " + std::to_string(dt_ids[index]) + " " + std::to_string(reached) + " "
                     + std::to_string(sig) + "\n");
            first = reached + 1;
        }
    }
    return 0;
}
"""

JAVA_PACKAGE = "debugtutor_rt"

JAVA_NODES = {
    "ListNode": """package debugtutor_rt;

public class ListNode {
    public int val;
    public ListNode next;
    public ListNode() {}
    public ListNode(int val) { this.val = val; }
    public ListNode(int val, ListNode next) { this.val = val; this.next = next; }
}
""",
    "TreeNode": """package debugtutor_rt;

public class TreeNode {
    public int val;
    public TreeNode left;
    public TreeNode right;
    public TreeNode() {}
    public TreeNode(int val) { this.val = val; }
    public TreeNode(int val, TreeNode left, TreeNode right) { this.val = val; this.left = left; this.right = right; }
}
""",
}

JAVA_COVERAGE = """package debugtutor_rt;

public final class Cov {
    public static final int MAX_LINE = 1 << 14;
    public static final boolean[] seen = new boolean[MAX_LINE];
    public static volatile int last = 0;

    public static void h(int line) {
        if (line > 0 && line < MAX_LINE) seen[line] = true;
        last = line;
    }

    static void reset() {
        java.util.Arrays.fill(seen, false);
        last = 0;
    }

    /** The lines seen since the last reset, comma-separated. */
    static String lines() {
        StringBuilder found = new StringBuilder();
        for (int line = 1; line < MAX_LINE; line++)
            if (seen[line]) found.append(found.length() == 0 ? "" : ",").append(line);
        return found.toString();
    }
}
"""

JAVA_RUNNER = """package debugtutor_rt;

import java.io.*;
import java.lang.management.*;
import java.lang.reflect.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public final class Runner {
    static OutputStream out;

    static synchronized void write(String line) {
        try {
            out.write(line.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            Runtime.getRuntime().halt(7);
        }
    }

    static String oneLine(String text) {
        if (text == null) return "";
        text = text.replace('\\n', ' ').replace('\\r', ' ');
        return text.length() > 300 ? text.substring(0, 300) : text;
    }

    static int lineIn(Throwable error, String pkg) {
        for (StackTraceElement frame : error.getStackTrace()) {
            if (frame.getClassName().startsWith(pkg + ".") && "Solution.java".equals(frame.getFileName()))
                return frame.getLineNumber();
        }
        return 0;
    }

    static volatile int currentId = -1;
    static volatile int currentTest = -1;
    static volatile int currentPosition = 0;
    static volatile long testStartedCpu = 0;
    static volatile long testStartedWall = 0;
    static volatile boolean busy = false;
    static volatile Thread active = null;

    /** A record of the worker's; a worker that was stopped (and may have caught its ThreadDeath) writes none. */
    static synchronized void emit(String line) {
        if (Thread.currentThread() == active) write(line);
    }

    static Thread startWorker(int tests, int position, int test, String[] ids) {
        // the judge's stack (java -Xss16m): a recursion that never ends overflows it in milliseconds and is an
        // error the runner catches, where a far larger stack took long enough to be a timeout, and a JVM restart
        Thread thread = new Thread(null, () -> work(tests, position, test, ids), "dt-worker", 16L << 20);
        thread.setDaemon(true);
        active = thread;
        thread.start();
        return thread;
    }

    @SuppressWarnings({"deprecation", "removal"})
    public static void main(String[] args) throws Exception {
        int tests = Integer.parseInt(args[0]);
        long perTestNanos = Long.parseLong(args[1]) * 1000L;
        long wallNanos = Long.parseLong(args[2]) * 1_000_000_000L;
        int firstTest = Integer.parseInt(args[3]);
        String[] ids = args[4].split(",");
        out = new FileOutputStream("dt_results.txt", true);
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        System.setErr(new PrintStream(OutputStream.nullOutputStream()));
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Thread worker = startWorker(tests, 0, firstTest, ids);
        while (worker.isAlive()) {
            Thread.sleep(5);
            if (!busy) continue;
            long cpu = bean.getThreadCpuTime(worker.getId());
            long now = System.nanoTime();
            if ((cpu < 0 || cpu - testStartedCpu <= perTestNanos) && now - testStartedWall <= wallNanos) continue;
            int position = currentPosition, test = currentTest;
            synchronized (Runner.class) {
                // (the worker writes under this lock: it is not stopped half-way through a record)
                if (!busy || test != currentTest || position != currentPosition) continue;
                String covered = Cov.lines();
                if (!covered.isEmpty()) write("C " + currentId + " " + test + " " + covered + "\\n");
                write("X " + currentId + " " + test + " timeout " + Cov.last + "\\n");
                busy = false;
                active = null;
                // a call that ran out of time is stopped where it is, and the next test runs in this JVM; a JVM
                // restart (the driver's) costs far more, and is the way out when the call does not stop
                worker.stop();
            }
            worker.join(500);
            if (worker.isAlive()) Runtime.getRuntime().halt(3);
            if (test + 1 < tests) worker = startWorker(tests, position, test + 1, ids);
            else if (position + 1 < ids.length) worker = startWorker(tests, position + 1, 0, ids);
        }
        out.close();
    }

    static void work(int tests, int firstPosition, int firstTest, String[] ids) {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        for (int position = firstPosition; position < ids.length; position++) {
            int id = Integer.parseInt(ids[position]);
            String pkg = "dt_c" + id;
            int start = position == firstPosition ? firstTest : 0;
            Method call;
            try {
                call = Class.forName(pkg + ".DtCalls").getMethod("call", int.class);
            } catch (Throwable error) {
                emit("K " + id + " " + start + " -1 load\\n");
                continue;
            }
            for (int test = start; test < tests; test++) {
                if (Thread.currentThread() != active) return;
                currentId = id;
                currentTest = test;
                currentPosition = position;
                Cov.reset();
                String head = id + " " + test + " ";
                testStartedCpu = bean.getCurrentThreadCpuTime();
                testStartedWall = System.nanoTime();
                busy = true;
                try {
                    Object value = call.invoke(null, test);
                    busy = false;
                    long used = (bean.getCurrentThreadCpuTime() - testStartedCpu) / 1000L;
                    emit("T " + head + used + " " + Json.json(value) + "\\n");
                } catch (InvocationTargetException wrapped) {
                    busy = false;
                    Throwable error = wrapped.getCause() == null ? wrapped : wrapped.getCause();
                    emit("E " + head + error.getClass().getSimpleName() + " " + lineIn(error, pkg) + " "
                        + oneLine(error.getMessage()) + "\\n");
                } catch (Throwable error) {
                    busy = false;
                    emit("E " + head + error.getClass().getSimpleName() + " 0 " + oneLine(error.getMessage()) + "\\n");
                }
                String covered = Cov.lines();
                if (!covered.isEmpty()) emit("C " + head + covered + "\\n");
            }
        }
    }
}
"""

JAVA_JSON_HEAD = """package debugtutor_rt;

import java.util.*;

public final class Json {
"""
