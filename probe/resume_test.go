package probe

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// needOpenSSL fails a full-tier test when openssl is missing (a fast-tier
// run skips before calling it).
func needOpenSSL(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("full tier: runs openssl (scripts/deps/probe.txt)")
	}
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Fatal("openssl not installed: install Debian's openssl package (scripts/deps/probe.txt)")
	}
}

// startSServer runs `openssl s_server` as a user starts it: interactive
// (no -quiet), its stdin an open pipe, so it keeps serving and prints each
// connection. Quiet mode handles an unclean close differently, and hid
// issue 15's lost sessions from the older tests.
func startSServer(t *testing.T, args ...string) string {
	t.Helper()
	for attempt := 0; attempt < 3; attempt++ {
		port := freePort(t)
		ctx, cancel := context.WithCancel(context.Background())
		all := append([]string{"s_server", "-accept", fmt.Sprint(port), "-naccept", "1000000"}, args...)
		cmd := exec.CommandContext(ctx, "openssl", all...)
		var out syncBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if waitListening(cmd, addr, exited) {
			t.Cleanup(func() {
				stdin.Close()
				cancel()
				<-exited
				if t.Failed() {
					t.Logf("openssl %s\n%s", strings.Join(all, " "), out.String())
				}
			})
			return addr
		}
		stdin.Close()
		cancel()
		<-exited
		if !strings.Contains(out.String(), "in use") {
			t.Fatalf("openssl s_server did not start: openssl %s\n%s", strings.Join(all, " "), out.String())
		}
	}
	t.Fatal("openssl s_server: no free port")
	return ""
}

// sClientResumes is the independent check: s_client saves the session of
// a full handshake (-sess_out) and offers it on a second connection
// (-sess_in); it says "Reused" when the server resumed. Its stdin stays
// open until the session is saved — TLS 1.3 tickets arrive after the
// handshake, and s_client writes the file when one does — then closes,
// so s_client sends close_notify and exits.
func sClientResumes(t *testing.T, addr, version string) bool {
	t.Helper()
	sess := filepath.Join(t.TempDir(), "sess.pem")
	run := func(flag string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "openssl", "s_client", "-connect", addr, version, flag, sess)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := stdout.Read(buf)
			b.Write(buf[:n])
			// "Verify return code" ends the summary s_client prints
			// (and flushes) after the handshake.
			if err != nil || strings.Contains(b.String(), "Verify return code") {
				break
			}
		}
		// The session file appears when the session (a TLS 1.3 ticket)
		// has arrived: an event polled for, bounded by ctx.
		for flag == "-sess_out" && ctx.Err() == nil {
			if fi, err := os.Stat(sess); err == nil && fi.Size() > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		stdin.Close()
		rest, _ := io.ReadAll(stdout)
		b.Write(rest)
		cmd.Wait()
		return b.String()
	}
	run("-sess_out")
	return strings.Contains(run("-sess_in"), "Reused, ")
}

// TestOpenSSLSessionCacheResumption (full tier: OpenSSL processes):
// issue 15. An interactive s_server drops a session whose connection ended
// without close_notify; the probe must close as s_client does and resume
// every try, with session IDs (TLS 1.2) and with TLS 1.3 stateful tickets
// (-no_ticket: the ticket is a session ID the server looks up in its
// cache). s_client resuming the same server is the independent check, and
// the resumed handshakes must be resumed on the wire: no Certificate down.
func TestOpenSSLSessionCacheResumption(t *testing.T) {
	needOpenSSL(t)
	t.Parallel()
	p := sharedPKI(t)
	for _, tc := range []struct {
		name    string
		args    []string
		mech    string
		version string // s_client's flag
		resumed string // the result measured
	}{
		{"session ID", []string{"-tls1_2"}, MechSessionID, "-tls1_2", "resumed/tls12-session-id"},
		{"session ID without tickets", []string{"-tls1_2", "-no_ticket"}, MechSessionID, "-tls1_2", "resumed/tls12-session-id"},
		{"TLS 1.3 stateful tickets", []string{"-tls1_3", "-no_ticket"}, MechTLS13PSK, "-tls1_3", "resumed/tls13-psk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr := startSServer(t, append(leafOnly(p), tc.args...)...)
			if !sClientResumes(t, addr, tc.version) {
				t.Fatalf("s_client did not resume against s_server %v: the fixture is wrong", tc.args)
			}
			r := runProbe(t, addr, Options{})
			wantResumption(t, r, tc.mech, testTries, testTries)
			res := resultNamed(r, tc.resumed)
			if res == nil {
				t.Fatalf("no %s result", tc.resumed)
			}
			// A full handshake carries the leaf certificate down; a
			// resumed one does not (RFC 5246 §7.3, RFC 8446 §2.2).
			if down := res.Metric("bytes-down").Summary.Median; down >= float64(len(p.leafDER)) {
				t.Errorf("%s: %v B down, at least the certificate's %d: a full handshake", tc.resumed, down, len(p.leafDER))
			}
			if m := res.Metric("round-trips"); m == nil || m.Summary.Median != 1 {
				t.Errorf("%s round trips: %+v, want 1", tc.resumed, m)
			}
		})
	}
}
