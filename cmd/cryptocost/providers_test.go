package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// doneWhen is issue 18's side-by-side run: five C libraries and Go.
var doneWhen = []string{"bench", "--provider", "openssl,sodium,mbedtls,wolfssl,gcrypt,go",
	"--algo", "AES-128-GCM,SHA-256,Ed25519,ECDSA-P256-SHA256,X25519",
	"--op", "seal,hash,sign,verify,derive"}

// TestProvidersSideBySide runs the side-by-side bench (quick, 64-byte
// inputs, one shared 10 s budget) and checks it measured every
// (algorithm, operation, provider) that the registry has, each with its
// KAT passed, in one run. In a CGO_ENABLED=0 build it checks instead that
// asking for a C provider says it is not compiled in and which Debian
// package brings it. Full tier (a few seconds of measuring).
func TestProvidersSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("measures about 40 points (-short)")
	}
	out := filepath.Join(t.TempDir(), "run.json")
	args := append(append([]string{}, doneWhen...), "--quick", "--sizes", "64", "--point-budget", "50ms",
		"--time-budget", "10s", "--no-save", "-q", "--format", "json", "-o", out)
	_, stderr, err := runMain(t, args...)
	if !cgoBuild() {
		if err == nil || !strings.Contains(err.Error(), "not compiled in") || !strings.Contains(err.Error(), "libssl-dev") {
			t.Fatalf("without cgo: error %v, want not compiled in with the Debian package", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	runs, err := result.ReadJSON(bytes.NewReader(mustRead(t, out)))
	if err != nil {
		t.Fatal(err)
	}
	run := runs[0]
	got := map[string]result.Result{}
	for _, r := range run.Results {
		got[r.Subject.Name] = r
	}
	want := 0
	for _, algo := range strings.Split(doneWhen[4], ",") {
		for _, prov := range strings.Split(doneWhen[2], ",") {
			ss, err := scheme.ByName(algo + "@" + prov)
			if err != nil {
				continue // the library does not offer it (libsodium has no AES-128-GCM, mbedTLS 2.28 no Ed25519)
			}
			for _, op := range ss[0].Operations() {
				if !strings.Contains(doneWhen[6], op.Name) {
					continue
				}
				want++
				name := ss[0].Info().ID() + "/" + op.Name
				switch op.Input {
				case scheme.InputBulk:
					name += "/64" // --sizes
				case scheme.InputMessage:
					name += "/32" // the default document size
				}
				r, ok := got[name]
				switch {
				case !ok:
					t.Errorf("no result for %s", name)
				case r.Error != "":
					t.Errorf("%s: %s", name, r.Error)
				case !strings.HasPrefix(r.Provenance.Verified, "known-answer test passed"):
					t.Errorf("%s: verified %q", name, r.Provenance.Verified)
				}
			}
		}
	}
	if want < 30 || len(run.Results) != want {
		t.Errorf("%d results for %d expected pairs", len(run.Results), want)
	}
	if run.Environment.CgoCallNs <= 0 || len(run.Environment.Libraries) != 5 {
		t.Errorf("environment: cgo call %v ns, libraries %v", run.Environment.CgoCallNs, run.Environment.Libraries)
	}
}

func cgoBuild() bool {
	for _, p := range scheme.Providers() {
		if p.Kind == scheme.KindC && p.Status == scheme.ProviderNotCompiled && strings.Contains(p.Reason, "CGO_ENABLED=0") {
			return false
		}
	}
	return true
}

// TestNoCgoBuild builds cryptocost with CGO_ENABLED=0 and runs it: every C
// provider is listed as not compiled in with its Debian package, and
// asking for one is that message, not a failure to start. Full tier (a
// build).
func TestNoCgoBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cryptocost without cgo (-short)")
	}
	bin := filepath.Join(t.TempDir(), "cryptocost-nocgo")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, goTool(t), "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "list", "--providers").CombinedOutput()
	if err != nil {
		t.Fatalf("list --providers: %v\n%s", err, out)
	}
	for _, p := range []string{"openssl", "sodium", "mbedtls", "wolfssl", "gcrypt"} {
		if !bytes.Contains(out, []byte(p+" ")) || !bytes.Contains(out, []byte("not compiled in")) {
			t.Errorf("list --providers without cgo does not list %s as not compiled in:\n%s", p, out)
		}
	}
	out, err = exec.Command(bin, "bench", "--provider", "wolfssl", "--algo", "SHA-256", "--quick").CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte("libwolfssl-dev")) || !bytes.Contains(out, []byte("CGO_ENABLED=0")) {
		t.Errorf("bench --provider wolfssl without cgo: %v\n%s", err, out)
	}
}

// TestQemuArm64Starts runs the cross-built arm64 binary under qemu-aarch64
// with its default CPU, which advertises SM4 instructions it then refuses:
// list works and marks SM4 unavailable, a quick bench of two other schemes
// completes, and naming SM4 is an error, not SIGILL. Full tier (qemu).
func TestQemuArm64Starts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the arm64 build under qemu (-short)")
	}
	qemu, err := exec.LookPath("qemu-aarch64")
	if err != nil {
		t.Fatalf("qemu-aarch64 not found (Debian package qemu-user; scripts/deps/providers.txt): %v", err)
	}
	dir, errs := crossBuild(t)
	if e, failed := errs["linux-arm64"]; failed {
		t.Fatalf("the arm64 build failed, nothing to run:\n%s", e)
	}
	bin := filepath.Join(dir, "cryptocost-linux-arm64")
	run := func(args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		return exec.CommandContext(ctx, qemu, append([]string{bin}, args...)...).CombinedOutput()
	}
	out, err := run("list", "--family", "block")
	if err != nil {
		t.Fatalf("qemu-aarch64 cryptocost list: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("AES-128")) {
		t.Errorf("list under qemu-aarch64 has no AES-128:\n%s", out)
	}
	// Whether SM4 is refused depends on qemu's CPU model; where it is, the
	// list says so instead of dying.
	sm4Refused := bytes.Contains(out, []byte("SM4@emmansun/gmsm is unavailable"))
	t.Logf("SM4 unavailable under qemu-aarch64: %v", sm4Refused)
	js := filepath.Join(t.TempDir(), "arm64.json")
	out, err = run("bench", "--quick", "--algo", "SHA-256,AES-128-GCM", "--op", "hash,seal", "--sizes", "64",
		"--point-budget", "20ms", "--time-budget", "5s", "--format", "json", "-o", js, "-q", "--no-save")
	if err != nil {
		t.Fatalf("qemu-aarch64 cryptocost bench: %v\n%s", err, out)
	}
	runs, err := result.ReadJSON(bytes.NewReader(mustRead(t, js)))
	if err != nil {
		t.Fatal(err)
	}
	if r := runs[0]; r.Environment.Arch != "arm64" || len(r.Results) != 2 || r.Status != result.Complete {
		t.Errorf("arm64 run: arch %s, %d results, status %s", r.Environment.Arch, len(r.Results), r.Status)
	}
	out, err = run("bench", "--quick", "--algo", "SM4", "--op", "encrypt-ecb", "--sizes", "64", "--time-budget", "2s", "-q", "--no-save")
	if bytes.Contains(out, []byte("SIGILL")) {
		t.Errorf("bench --algo SM4 died on SIGILL:\n%s", out)
	}
	if sm4Refused && (err == nil || !bytes.Contains(out, []byte("unavailable"))) {
		t.Errorf("bench --algo SM4 on a CPU that refuses it: %v\n%s", err, out)
	}
}

// goTool is the go command that runs these tests (go test puts its own on
// PATH ahead of others).
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	return p
}
