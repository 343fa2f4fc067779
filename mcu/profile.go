package mcu

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// profilerSource is the QEMU plugin that counts executed blocks between the
// harness's markers.
//
//go:embed profiler/profiler.c
var profilerSource []byte

// Window is what the profiler counted during one measurement: how often
// each translation block ran and how often the block after it was not the
// one that follows it in memory (a taken branch).
type Window struct {
	Seq     int
	Blocks  []BlockCount
	Skipped []BlockCount // the counter's interrupt handler: not the kernel's
}

// BlockCount is one translation block's executions in a window.
type BlockCount struct {
	Start uint64 // address of its first instruction
	Insns int    // instructions in it
	Count uint64 // times it ran
	Taken uint64 // times the next block did not start where it ends
}

// Instructions is the window's instruction count, interrupts excluded.
func (w *Window) Instructions() uint64 {
	var n uint64
	for _, b := range w.Blocks {
		n += uint64(b.Insns) * b.Count
	}
	return n
}

// readWindows parses the profiler's file: the complete windows, in order
// (a run that was killed may end in a window cut off, even mid-line: it is
// left out).
func readWindows(file string) ([]*Window, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1] // a line cut off by a kill
	}
	var (
		out []*Window
		cur *Window
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		bad := func() error { return fmt.Errorf("%s:%d: unexpected %q", filepath.Base(file), line, sc.Text()) }
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "window":
			n, err := strconv.Atoi(fs[1])
			if err != nil || cur != nil || n != len(out) {
				return nil, bad()
			}
			cur = &Window{Seq: n}
		case "b", "s":
			if cur == nil || (fs[0] == "b" && len(fs) != 5) || (fs[0] == "s" && len(fs) != 4) {
				return nil, bad()
			}
			var b BlockCount
			var e1, e2, e3, e4 error
			b.Start, e1 = strconv.ParseUint(fs[1], 16, 64)
			b.Insns, e2 = strconv.Atoi(fs[2])
			b.Count, e3 = strconv.ParseUint(fs[3], 10, 64)
			if fs[0] == "b" {
				b.Taken, e4 = strconv.ParseUint(fs[4], 10, 64)
				cur.Blocks = append(cur.Blocks, b)
			} else {
				cur.Skipped = append(cur.Skipped, b)
			}
			if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
				return nil, bad()
			}
		case "end":
			if cur == nil {
				return nil, bad()
			}
			out = append(out, cur)
			cur = nil
		default:
			return nil, bad()
		}
	}
	return out, sc.Err()
}

// profilerMarks are the plugin's arguments for an image: the addresses of
// the harness's markers and of the counter's interrupt handler, from the
// ELF symbol table (Thumb function symbols have bit 0 set; instructions
// are at the even address).
func profilerMarks(file string) ([]string, error) {
	f, err := elf.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	want := map[string]*elf.Symbol{"mcu_trace_on": nil, "mcu_trace_off": nil, "mcu_systick": nil}
	for i := range syms {
		if _, ok := want[syms[i].Name]; ok {
			want[syms[i].Name] = &syms[i]
		}
	}
	for name, s := range want {
		if s == nil && name != "mcu_systick" {
			return nil, fmt.Errorf("no symbol %s: not built with the harness?", name)
		}
	}
	args := []string{
		fmt.Sprintf("on=%#x", want["mcu_trace_on"].Value&^1),
		fmt.Sprintf("off=%#x", want["mcu_trace_off"].Value&^1),
	}
	if s := want["mcu_systick"]; s != nil {
		lo := s.Value &^ 1
		args = append(args, fmt.Sprintf("skip=%#x-%#x", lo, lo+s.Size))
	}
	return args, nil
}

// pluginMu serialises building the plugin: parallel simulations share it.
var pluginMu sync.Mutex

// profilerPlugin builds the profiler with the host C compiler into dir
// (once: the file is named by the source's hash) and returns its path.
func (tc *Toolchain) profilerPlugin(ctx context.Context, dir string) (string, error) {
	if tc.HostCC == "" {
		return "", fmt.Errorf("%w: the cycle estimate needs a host C compiler for the QEMU profiler plugin (Debian package gcc)", ErrNoToolchain)
	}
	sum := sha256.Sum256(profilerSource)
	so := filepath.Join(dir, "profiler-"+hex.EncodeToString(sum[:8])+".so")
	pluginMu.Lock()
	defer pluginMu.Unlock()
	if _, err := os.Stat(so); err == nil {
		return so, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(dir, ".profiler-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "profiler.c")
	if err := os.WriteFile(src, profilerSource, 0o644); err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, tc.HostCC, "-shared", "-fPIC", "-O2", "-fvisibility=hidden", "-o", filepath.Join(tmp, "profiler.so"), src).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the QEMU profiler plugin with %s: %v\n%s", tc.HostCC, err, out)
	}
	if err := os.Rename(filepath.Join(tmp, "profiler.so"), so); err != nil {
		return "", err
	}
	return so, nil
}
