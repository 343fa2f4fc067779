package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/internal/testtier"
	"github.com/cryptocost/cryptocost/result"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["checkmetric"] = checkMetric
}

// checkmetric FILE SUBJECT METRIC UNIT LABEL [VALUE]: the run in FILE has a
// result SUBJECT with metric METRIC in UNIT labelled LABEL, with a non-empty
// method, and (when VALUE is given) a median within 0.1 % of VALUE.
func checkMetric(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 5 {
		ts.Fatalf("usage: checkmetric FILE SUBJECT METRIC UNIT LABEL [VALUE]")
	}
	runs, err := result.ReadJSON(strings.NewReader(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	problem := func() string {
		for _, r := range runs[0].Results {
			if r.Subject.Name != args[1] {
				continue
			}
			m := r.Metric(args[2])
			switch {
			case m == nil:
				return fmt.Sprintf("%s has no metric %s (warnings: %v)", args[1], args[2], r.Warnings)
			case m.Unit != args[3] || string(m.Label) != args[4]:
				return fmt.Sprintf("%s %s is %s, %s; want %s, %s", args[1], args[2], m.Unit, m.Label, args[3], args[4])
			case m.Method == "":
				return fmt.Sprintf("%s %s has no method", args[1], args[2])
			}
			if len(args) > 5 {
				want, _ := strconv.ParseFloat(args[5], 64)
				if math.Abs(m.Summary.Median-want) > 1e-3*math.Abs(want) {
					return fmt.Sprintf("%s %s = %v, want %v", args[1], args[2], m.Summary.Median, want)
				}
			}
			return ""
		}
		return "no result " + args[1]
	}()
	if (problem == "") == neg {
		if problem == "" {
			problem = "metric found, want none"
		}
		ts.Fatalf("%s: %s", args[0], problem)
	}
}

// crossTargets are the boards, routers and Android terminals cryptocost
// is built for (issue 3): 32-bit ARM with and without VFPv3 (ARMv6 as on a
// Pi Zero, ARMv7), 64-bit ARM, RISC-V and little-endian MIPS (routers:
// soft float, as most have no FPU). The binaries a test runs under
// qemu-user are linked (ARMv7: TestQemuArmBenchCalibrate and TestFleetPush;
// arm64: TestQemuArm64Starts; riscv64: TestFleetPush); the others are
// compiled, every package for the target, without the link that running
// nothing would waste (a few CPU seconds each; minutes on a loaded host).
var crossTargets = []struct {
	name, goarch, goarm, gomips string
	link                        bool
}{
	{"linux-armv6", "arm", "6", "", false},
	{"linux-armv7", "arm", "7", "", true},
	{"linux-arm64", "arm64", "", "", true},     // TestQemuArm64Starts runs it
	{"linux-riscv64", "riscv64", "", "", true}, // TestFleetPush runs it
	{"linux-mipsle", "mipsle", "", "softfloat", false},
}

var (
	crossOnce sync.Once
	crossDir  string
	crossErrs map[string]string
)

// crossBuild builds cryptocost for every target once per test binary
// (however many tests and -count runs ask), one target at a time — the go
// command already uses every CPU — with -trimpath: linked where the
// target says so, else compiled only (go list -export compiles each
// package for the target to its export data and links nothing).
func crossBuild(t *testing.T) (string, map[string]string) {
	crossOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cryptocost-cross-")
		if err != nil {
			t.Fatal(err)
		}
		crossDir, crossErrs = dir, map[string]string{}
		goBin := goTool(t)
		for _, tg := range crossTargets {
			args := []string{"list", "-trimpath", "-export", "-deps", "-f", "{{if .Error}}{{.ImportPath}}: {{.Error}}{{end}}", "."}
			if tg.link {
				args = []string{"build", "-trimpath", "-o", filepath.Join(dir, "cryptocost-"+tg.name), "."}
			}
			cmd := exec.Command(goBin, args...)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+tg.goarch, "GOARM="+tg.goarm, "GOMIPS="+tg.gomips)
			out, err := cmd.CombinedOutput()
			if err == nil && len(bytes.TrimSpace(out)) > 0 {
				err = fmt.Errorf("package errors")
			}
			if err != nil {
				crossErrs[tg.name] = fmt.Sprintf("%v\n%s", err, firstLines(string(out), 12))
			}
		}
	})
	return crossDir, crossErrs
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

// TestCrossCompile builds cryptocost for linux/arm (GOARM 6 and 7),
// linux/arm64, linux/riscv64 and linux/mipsle (see crossTargets). Full
// tier: five cross-builds.
func TestCrossCompile(t *testing.T) {
	testtier.Slow(t, "cross-builds cryptocost for five targets")
	dir, errs := crossBuild(t)
	for _, tg := range crossTargets {
		t.Run(tg.name, func(t *testing.T) {
			if e, failed := errs[tg.name]; failed {
				t.Fatalf("GOOS=linux GOARCH=%s GOARM=%s GOMIPS=%s go build -trimpath ./cmd/cryptocost:\n%s", tg.goarch, tg.goarm, tg.gomips, e)
			}
			if !tg.link {
				return
			}
			if fi, err := os.Stat(filepath.Join(dir, "cryptocost-"+tg.name)); err != nil || fi.Size() == 0 {
				t.Fatalf("no binary: %v", err)
			}
		})
	}
}

// TestQemuArmBenchCalibrate runs the ARMv7 build under qemu-user: a quick
// bench of two algorithms as JSON, which calibrate then stores for the Pi
// Zero 2 W (a 32-bit ARM userland runs there), with the warning that the
// times describe the emulator; energy cost then prices this machine's run
// of the same and other algorithms on the Pi from that calibration.
func TestQemuArmBenchCalibrate(t *testing.T) {
	qemu := testtier.RequireTool(t, "qemu-arm", "qemu-user") // scripts/deps/energy.txt
	dir, errs := crossBuild(t)
	if e, failed := errs["linux-armv7"]; failed {
		t.Fatalf("the ARMv7 build failed, nothing to run:\n%s", e)
	}
	work := t.TempDir()
	armJSON := filepath.Join(work, "arm.json")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang guard, not a budget
	defer cancel()
	start := time.Now()
	bench := exec.CommandContext(ctx, qemu, filepath.Join(dir, "cryptocost-linux-armv7"), "bench", "--quick",
		"--algo", "SHA-256,Ed25519", "--op", "hash,sign", "--sizes", "64", "--point-budget", "20ms", "--time-budget", "5s",
		"--format", "json", "-o", armJSON, "-q")
	if out, err := bench.CombinedOutput(); err != nil {
		t.Fatalf("qemu-arm cryptocost bench: %v\n%s", err, out)
	}
	t.Logf("bench under qemu-arm took %v", time.Since(start).Round(time.Millisecond))
	runs, err := result.ReadJSON(bytes.NewReader(mustRead(t, armJSON)))
	if err != nil {
		t.Fatal(err)
	}
	arm := runs[0]
	if arm.Environment.Arch != "arm" || arm.Environment.GOARM == "" || len(arm.Results) != 2 || arm.Status != result.Complete {
		t.Fatalf("ARM run: arch %s goarm %q, %d results, status %s", arm.Environment.Arch, arm.Environment.GOARM, len(arm.Results), arm.Status)
	}

	// calibrate and energy cost, in this process, as a user runs them.
	cal := filepath.Join(work, "cal")
	stdout, stderr, err := runMain(t, "calibrate", "--device", "pi-zero-2w", "--from", armJSON, "--calibrations", cal)
	if err != nil {
		t.Fatalf("calibrate: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "calibrated pi-zero-2w with 2 times per operation") || !strings.Contains(stderr, "emulation (qemu-user)") {
		t.Errorf("calibrate output:\n%s\n%s", stdout, stderr)
	}
	c, err := costing.LoadCalibration(cal, "pi-zero-2w")
	if err != nil || c == nil || len(c.Entries) != 2 || c.Environment.Arch != "arm" {
		t.Fatalf("stored calibration %+v, %v", c, err)
	}

	// This machine's run: the same two subjects plus one the Pi did not
	// measure, which is estimated by the calibrated ratio.
	hostJSON := filepath.Join(work, "host.json")
	if _, stderr, err := runMain(t, "bench", "--quick", "--algo", "SHA-256,Ed25519", "--op", "hash,sign,verify", "--sizes", "64",
		"--point-budget", "10ms", "-q", "-o", hostJSON); err != nil {
		t.Fatalf("host bench: %v\n%s", err, stderr)
	}
	pricedJSON := filepath.Join(work, "priced.json")
	if _, stderr, err := runMain(t, "energy", "cost", "--device", "pi-zero-2w", "--from", hostJSON, "--calibrations", cal, "--format", "json", "-o", pricedJSON); err != nil {
		t.Fatalf("energy cost: %v\n%s", err, stderr)
	}
	runs, _ = result.ReadJSON(bytes.NewReader(mustRead(t, pricedJSON)))
	for _, r := range runs[0].Results {
		dt := r.Metric("device-time")
		if dt == nil {
			t.Errorf("%s: no device time (%v)", r.Subject.Name, r.Warnings)
			continue
		}
		e := c.Lookup(r.Subject.Name)
		switch {
		case e != nil && (dt.Label != result.Imported || math.Abs(dt.Summary.Median-e.MedianNs/1e9) > 1e-9*dt.Summary.Median):
			t.Errorf("%s: device time %v s %s, want the calibration's %v ns imported", r.Subject.Name, dt.Summary.Median, dt.Label, e.MedianNs)
		case e == nil && (dt.Label != result.Estimated || !strings.Contains(dt.Method, "calibrated ratio")):
			t.Errorf("%s: device time %s by %q, want estimated by the calibrated ratio", r.Subject.Name, dt.Label, dt.Method)
		}
		if en := r.Metric("energy"); en == nil || en.Summary.Median <= 0 {
			t.Errorf("%s: no energy", r.Subject.Name)
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runMain runs the command line in this process.
func runMain(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

// TestBatteryRecordsGiven: energy battery's run says what the answer was
// computed with beside the question: --capacity, --usable and --op-time
// are in the result's params (costing.BatteryRequest).
func TestBatteryRecordsGiven(t *testing.T) {
	stdout, stderr, err := runMain(t, "energy", "battery", "--device", "esp32", "--algo", "ECDSA-P256-SHA256", "--op", "sign",
		"--every", "1h", "--op-time", "50ms", "--capacity", "1000mAh", "--usable", "0.8", "--format", "json", "--no-save",
		"--calibrations", t.TempDir())
	if err != nil {
		t.Fatalf("energy battery: %v\n%s", err, stderr)
	}
	runs, err := result.ReadJSON(strings.NewReader(stdout))
	if err != nil || len(runs) != 1 || len(runs[0].Results) != 1 {
		t.Fatalf("runs %v, %v", runs, err)
	}
	p := runs[0].Results[0].Subject.Params
	for k, want := range map[string]string{"period": "1h0m0s", "op-time": "50ms", "capacity": "1000mAh", "usable": "0.8"} {
		if p[k] != want {
			t.Errorf("params[%q] = %q, want %q", k, p[k], want)
		}
	}
}
