/*
 * profiler.c: a QEMU TCG plugin that counts, for each translation block,
 * how often it ran between two marker functions and how often the block
 * that ran next did not start where it ends (a taken branch). From these
 * counts and the image's disassembly cryptocost knows how many times each
 * instruction executed and which way each branch went — the inputs of its
 * per-instruction-class cycle estimate (mcu/cycles.go), and an independent
 * count of the instructions the board timer counts.
 *
 * Arguments (-plugin profiler.so,on=ADDR,off=ADDR,skip=LO-HI,out=FILE):
 *   on, off  the addresses of the harness's mcu_trace_on and mcu_trace_off:
 *            a window opens when the block at on runs, closes at off
 *   skip     an address range (the counter's interrupt handler) whose
 *            blocks are reported apart and never taken as the next block
 *   out      the file the windows are written to, one at a time:
 *
 *     window N
 *     b START INSNS COUNT NONSEQ
 *     s START INSNS COUNT
 *     end N
 *
 * Written against QEMU's plugin API version 1 (QEMU 4.2 to 8.0,
 * docs/devel/tcg-plugins.rst); the few functions it uses are declared
 * here, so it builds with the host compiler alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* The plugin API, as QEMU exports it to plugins. */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, void (*cb)(unsigned int vcpu, void *udata), int flags, void *udata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *), void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

EXPORT int qemu_plugin_version = 1;

enum kind { PLAIN, ON, OFF, SKIP };

struct block {
	uint64_t start, next; /* first instruction; the address after the last */
	uint32_t insns;
	enum kind kind;
	uint64_t count, nonseq; /* in the open window */
	struct block *dirty;    /* blocks that ran in the open window */
	int listed;
};

static uint64_t on_addr, off_addr, skip_lo, skip_hi;
static FILE *out;
static int active;
static long window;
static struct block *prev, *dirty;

static void close_window(void)
{
	struct block *b, *next;
	fprintf(out, "window %ld\n", window);
	for (b = dirty; b; b = next) {
		next = b->dirty;
		if (b->kind == SKIP)
			fprintf(out, "s %llx %u %llu\n", (unsigned long long)b->start, b->insns, (unsigned long long)b->count);
		else
			fprintf(out, "b %llx %u %llu %llu\n", (unsigned long long)b->start, b->insns,
				(unsigned long long)b->count, (unsigned long long)b->nonseq);
		b->count = b->nonseq = 0;
		b->listed = 0;
		b->dirty = NULL;
	}
	fprintf(out, "end %ld\n", window);
	fflush(out);
	dirty = NULL;
	window++;
}

static void exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	(void)vcpu;
	switch (b->kind) {
	case ON:
		active = 1;
		prev = NULL;
		return;
	case OFF:
		if (active)
			close_window();
		active = 0;
		return;
	default:
		break;
	}
	if (!active)
		return;
	if (!b->listed) {
		b->listed = 1;
		b->dirty = dirty;
		dirty = b;
	}
	b->count++;
	if (b->kind == SKIP)
		return; /* an interrupt: the next block continues from prev */
	if (prev && prev->next != b->start)
		prev->nonseq++;
	prev = b;
}

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = calloc(1, sizeof *b);
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
	(void)id;
	if (!b)
		abort();
	b->start = qemu_plugin_tb_vaddr(tb);
	b->insns = n;
	b->next = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last);
	if (b->start == on_addr)
		b->kind = ON;
	else if (b->start == off_addr)
		b->kind = OFF;
	else if (b->start >= skip_lo && b->start < skip_hi)
		b->kind = SKIP;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, exec, 0, b);
}

static void finish(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (out)
		fclose(out);
	out = NULL;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strncmp(a, "on=", 3))
			on_addr = strtoull(a + 3, NULL, 0);
		else if (!strncmp(a, "off=", 4))
			off_addr = strtoull(a + 4, NULL, 0);
		else if (!strncmp(a, "skip=", 5)) {
			char *end;
			skip_lo = strtoull(a + 5, &end, 0);
			if (*end == '-')
				skip_hi = strtoull(end + 1, NULL, 0);
		} else if (!strncmp(a, "out=", 4)) {
			out = fopen(a + 4, "w");
			if (!out) {
				perror(a + 4);
				return 1;
			}
		} else {
			fprintf(stderr, "cryptocost profiler: unknown argument %s\n", a);
			return 1;
		}
	}
	if (!out || !on_addr || !off_addr) {
		fprintf(stderr, "cryptocost profiler: want on=, off= and out=\n");
		return 1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	qemu_plugin_register_atexit_cb(id, finish, NULL);
	return 0;
}
