/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* The verifier's guard, linked into every imgtool it builds, ahead of the agent's objects: from the executable's
 * .preinit_array (after the sanitizer runtime has set itself up, before any of the agent's code can run) it
 * installs a seccomp filter, so the graded program cannot change how it is graded: no other program (execve,
 * fork: a re-executed imgtool would choose its own sanitizer options), no handler for the signals a crash
 * raises, no state that outlives the run (System V IPC, message queues, keyrings), no other process touched. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define RETURN(action) BPF_STMT(BPF_RET | BPF_K, (action))
#define DENY RETURN(SECCOMP_RET_ERRNO | EPERM)
#define IF_NOT(value, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (value), 0, (skip))
#define REFUSE(nr) IF_NOT(nr, 1), DENY

static void kimg_guard(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    struct sock_filter filter[] = {
        LOAD(arch),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        RETURN(SECCOMP_RET_KILL_PROCESS),
        LOAD(nr),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* the x32 numbering */
        DENY,
        REFUSE(__NR_execve), REFUSE(__NR_execveat), REFUSE(__NR_fork), REFUSE(__NR_vfork), REFUSE(__NR_ptrace),
        REFUSE(__NR_process_vm_readv), REFUSE(__NR_process_vm_writev), REFUSE(__NR_kill), REFUSE(__NR_setsid),
        REFUSE(__NR_shmget), REFUSE(__NR_msgget), REFUSE(__NR_semget), REFUSE(__NR_mq_open), REFUSE(__NR_add_key),
        REFUSE(__NR_request_key), REFUSE(__NR_keyctl), REFUSE(__NR_io_uring_setup), REFUSE(__NR_unshare),
        REFUSE(__NR_setns), REFUSE(__NR_personality),
        IF_NOT(__NR_clone3, 1), RETURN(SECCOMP_RET_ERRNO | ENOSYS), /* threads fall back to clone */
        IF_NOT(__NR_clone, 4),
        LOAD(args[0]),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        RETURN(SECCOMP_RET_ALLOW),
        DENY,
        IF_NOT(__NR_rt_sigaction, 9),
        LOAD(args[0]),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIGSEGV, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIGBUS, 5, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIGILL, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIGFPE, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIGABRT, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIGTRAP, 1, 0),
        RETURN(SECCOMP_RET_ALLOW),
        DENY,
        RETURN(SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {(unsigned short)(sizeof filter / sizeof filter[0]), filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
        _exit(97); /* never graded as a clean rejection */
}

__attribute__((section(".preinit_array"), used)) static void (*const kimg_guard_entry)(int, char **, char **) =
    kimg_guard;
