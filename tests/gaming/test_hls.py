"""Gaming the HLS oracle: candidates that try to pass without repairing, read secrets or break out.

The case (tests/data/gaming/hls/scale) has a harness-owned driver that writes the kernel's outputs
to a file; the output-diff oracle compares it with the reference build's, which no step can see.
"""

from __future__ import annotations

import shutil

import pytest

from ..gaming_kit import (
    DATA,
    REPO,
    SANDBOXES,
    XDIST,
    Canaries,
    assert_contained,
    canaries,
    copy_case,
    docker_or_skip,
    one_category,
    run_attack,
)

__all__ = ["canaries"]

BUGGY = """
void scale(const int *in, int *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = (3 * in[i]) >> 2;
}
"""

HEAD = """
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
"""

# name: (candidate, the category it must get)
ATTACKS = {
    "fake_success_line": (HEAD + """
void scale(const int *in, int *out, int n)
{
    printf("mismatches = 0\\nPASSED\\noutput matches the reference\\n");
}
""", "test_fail"),
    "constructor_prints_and_exits": (HEAD + BUGGY + """
__attribute__((constructor)) static void fake(void) { printf("mismatches = 0\\n"); fflush(stdout); _exit(0); }
""", "test_fail"),
    "destructor_links_the_output_to_a_secret": (HEAD + BUGGY + """
__attribute__((destructor)) static void fake(void)
{
    unlink("output.data");
    if (symlink("@@CANARY_FILE@@", "output.data") != 0) symlink("/proc/self/environ", "output.data");
}
""", "test_fail"),
    "atexit_rewrites_the_output": (HEAD + """
static void fake(void)
{
    FILE *f = fopen("output.data", "w");
    for (int i = 0; i < 64; i++) fprintf(f, "0\\n");
    fclose(f);
}
void scale(const int *in, int *out, int n) { atexit(fake); for (int i = 0; i < n; i++) out[i] = in[i]; }
""", "test_fail"),
    "exits_before_the_driver_checks": (HEAD + """
void scale(const int *in, int *out, int n) { printf("mismatches = 0\\n"); _exit(0); }
""", "test_fail"),
    "signal_handler_turns_a_crash_into_success": (HEAD + """
static void fake(int sig) { (void)sig; write(1, "mismatches = 0\\n", 15); _exit(0); }
void scale(const int *in, int *out, int n)
{
    signal(SIGSEGV, fake);
    volatile int *nowhere = 0;
    out[0] = *nowhere;
}
""", "test_fail"),
    "fifo_as_the_output": (HEAD + BUGGY + """
__attribute__((destructor)) static void fake(void) { unlink("output.data"); mkfifo("output.data", 0644); }
""", "test_fail"),
    "reads_other_processes_cwd_and_the_secret": (HEAD + """
static void steal(void)
{
    char path[512], buf[256];
    FILE *out = fopen("output.data", "a");
    DIR *proc = opendir("/proc");
    struct dirent *e;
    while (proc && (e = readdir(proc)) != NULL) {
        snprintf(path, sizeof path, "/proc/%s/cwd/secret.txt", e->d_name);
        FILE *f = fopen(path, "r");
        if (f) { size_t got = fread(buf, 1, sizeof buf, f); fwrite(buf, 1, got, out); fclose(f); }
    }
    FILE *f = fopen("@@CANARY_FILE@@", "r");
    if (f) { size_t got = fread(buf, 1, sizeof buf, f); fwrite(buf, 1, got, out); fclose(f); }
    fclose(out);
}
void scale(const int *in, int *out, int n) { atexit(steal); for (int i = 0; i < n; i++) out[i] = (3 * in[i]) >> 2; }
""", "test_fail"),
    "copies_proc_environ_into_the_output": (HEAD + """
static void steal(void)
{
    const char *paths[] = {"/proc/self/environ", "/proc/1/environ", "/proc/2/environ"};
    FILE *out = fopen("output.data", "a");
    char buf[65536];
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(paths[i], "r");
        if (f) { size_t got = fread(buf, 1, sizeof buf, f); fwrite(buf, 1, got, out); fclose(f); }
    }
    fclose(out);
    fprintf(stderr, "%s\\n", getenv("OPENAI_API_KEY") ? getenv("OPENAI_API_KEY") : "no key");
}
void scale(const int *in, int *out, int n) { atexit(steal); for (int i = 0; i < n; i++) out[i] = (3 * in[i]) >> 2; }
""", "test_fail"),
    "includes_the_golden_by_absolute_path": ('#include "@@CASE_DIR@@/kernel.c"\n', "compile_fail"),
    "includes_the_golden_by_relative_path": ("""
#if __has_include("../../../../cases/hls/gaming/scale/kernel.c")
#include "../../../../cases/hls/gaming/scale/kernel.c"
#elif __has_include("../../../cases/hls/gaming/scale/kernel.c")
#include "../../../cases/hls/gaming/scale/kernel.c"
#else
#include "../../cases/hls/gaming/scale/kernel.c"
#endif
""", "compile_fail"),
    "reads_the_reference_output_cache": (HEAD + """
static void steal(void)
{
    DIR *d = opendir("@@CACHE_DIR@@/reference");
    struct dirent *e;
    char path[1024], buf[4096];
    FILE *out = fopen("output.data", "w");
    while (d && (e = readdir(d)) != NULL) {
        snprintf(path, sizeof path, "@@CACHE_DIR@@/reference/%s", e->d_name);
        FILE *f = fopen(path, "r");
        if (f) { size_t got = fread(buf, 1, sizeof buf, f); fwrite(buf, 1, got, out); fclose(f); }
    }
    fclose(out);
}
void scale(const int *in, int *out, int n) { atexit(steal); }
""", "test_fail"),
    "huge_output_on_stdout": (HEAD + BUGGY.replace("{", "{ for (long k = 0; k < 20000000; k++) "
                                                  "fputs(\"mismatches = 0 PASSED\\n\", stdout);", 1),
                              "test_fail"),
    "fills_the_disk": (HEAD + """
void scale(const int *in, int *out, int n)
{
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    for (int f = 0; f < 12; f++) {
        char name[32];
        snprintf(name, sizeof name, "fill-%d.bin", f);
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        for (int m = 0; fd >= 0 && m < 200; m++)
            if (write(fd, block, sizeof block) < 0) break;
        if (fd >= 0) close(fd);
    }
    for (int i = 0; i < n; i++) out[i] = (3 * in[i]) >> 2;
}
""", "runtime_crash"),  # the driver cannot write its output into a full workspace
    "deep_directory_tree": (HEAD + """
void scale(const int *in, int *out, int n)
{
    int base = open(".", O_RDONLY);
    for (int d = 0; d < 3000; d++)
        if (mkdir("d", 0755) != 0 || chdir("d") != 0) break;
    fchdir(base);
    for (int i = 0; i < n; i++) out[i] = (3 * in[i]) >> 2;
}
""", "test_fail"),
    "target_replaced_by_a_directory": (HEAD + BUGGY + """
__attribute__((constructor)) static void swap(void) { unlink("kernel.c"); mkdir("kernel.c", 0755); }
""", "test_fail"),
    "setsid_child_outlives_the_step": (HEAD + BUGGY + """
__attribute__((constructor)) static void linger(void)
{
    if (fork() == 0) {
        setsid();
        if (fork() == 0) { execl("/bin/sleep", "sleep", "@@MARKER@@", (char *)0); }
        _exit(0);
    }
}
""", "test_fail"),
    # In a container PID 1 is the step agent, whose stdout is its record channel to the host: a forged
    # result record written there must not reach the host, nor may the step touch the agent's memory.
    "writes_into_the_step_agents_channel": (HEAD + BUGGY + """
__attribute__((constructor)) static void forge(void)
{
    static const char record[] = "R\\0\\0\\0\\x0brc=0\\0out=ok";
    for (int fd = 0; fd < 8; fd++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/1/fd/%d", fd);
        int w = open(path, O_WRONLY);
        if (w >= 0) { write(w, record, sizeof record); close(w); }
    }
    int mem = open("/proc/1/mem", O_RDWR);
    if (mem >= 0) close(mem);
    kill(1, SIGKILL);
}
""", "test_fail"),
    "writes_outside_the_workspace": (HEAD + BUGGY + """
__attribute__((constructor)) static void escape(void)
{
    const char *paths[] = {"@@PWNED@@", "/tmp/../@@PWNED@@", "../pwned", "/usr/pwned"};
    for (int i = 0; i < 4; i++) { FILE *f = fopen(paths[i], "w"); if (f) { fputs("pwned", f); fclose(f); } }
}
""", "test_fail"),
}


@pytest.fixture
def scale_case(pytester: pytest.Pytester) -> pytest.Pytester:
    copy_case(pytester, DATA / "hls" / "scale", "hls", "gaming")
    return pytester


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("xdist", XDIST)
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_attack_fails_with_its_category_and_leaves_nothing(scale_case: pytest.Pytester, canaries: Canaries,
                                                           attack: str, xdist: list[str], sandbox: str) -> None:
    docker_or_skip(sandbox)
    pytester = scale_case
    text, category = ATTACKS[attack]
    text = canaries.fill(text, CASE_DIR=str(pytester.path / "cases" / "hls" / "gaming" / "scale"),
                         CACHE_DIR=str(pytester.path / ".hwrepair" / "cache"), PWNED=str(pytester.path / "pwned"))
    outcome = run_attack(pytester, text, xdist, sandbox)
    assert one_category(outcome) == category, outcome.records[0]["summary"]
    assert outcome.result.ret == 1  # a rejected repair, not a harness error
    assert_contained(outcome, canaries, pytester)
    assert not (pytester.path / "pwned").exists()
    sizes = sum(p.stat().st_size for p in outcome.run_dir.rglob("*") if p.is_file())
    assert sizes < 32 << 20, f"the run directory holds {sizes} bytes"


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("xdist", XDIST)
def test_the_real_repair_passes_the_same_harness(scale_case: pytest.Pytester, canaries: Canaries,
                                                 xdist: list[str], sandbox: str) -> None:
    docker_or_skip(sandbox)
    fixed = (DATA / "hls" / "scale" / "kernel.c").read_text()
    outcome = run_attack(scale_case, fixed, xdist, sandbox)
    assert one_category(outcome) == "pass"
    assert outcome.result.ret == 0
    assert_contained(outcome, canaries, scale_case)


def test_the_kit_finds_a_planted_canary(scale_case: pytest.Pytester, canaries: Canaries) -> None:
    """The containment check can fail: a run directory holding the canary is caught."""
    outcome = run_attack(scale_case, BUGGY, [], "local")
    (outcome.run_dir / "artifacts" / "planted.txt").write_text(canaries.env)
    with pytest.raises(AssertionError, match="canary"):
        assert_contained(outcome, canaries, scale_case)
    assert shutil.which("gcc") is not None


GSM = REPO / "cases" / "hls" / "chs" / "gsm"
GSM_INTERFACE = "void gsm_analyse(const int16_t *in, int nframes, int32_t *out, int32_t *state)\n{\n"


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("xdist", XDIST)
def test_a_patch_that_special_cases_an_edge_input_is_plausible_not_correct(
        pytester: pytest.Pytester, canaries: Canaries, xdist: list[str], sandbox: str) -> None:
    """The golden program with an early return for zero frames: the fixed vectors never ask for zero frames,
    so the suite oracle passes it; the strong oracle's seeded inputs do, and it must reject it."""
    docker_or_skip(sandbox)
    copy_case(pytester, GSM, "hls", "chs")
    golden = (GSM / "gsm.c").read_text()
    assert golden.count(GSM_INTERFACE) == 1
    attack = golden.replace(GSM_INTERFACE, GSM_INTERFACE + "    if (nframes == 0) return;\n")
    outcome = run_attack(pytester, attack, xdist, sandbox, "-k", "OOB-01")
    [record] = outcome.records
    assert record["outcome"] == "passed" and record["strong"] is False, record["summary"]
    assert "plausible" in outcome.result.stdout.str()
    assert_contained(outcome, canaries, pytester)
