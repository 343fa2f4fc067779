package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/report"
	"github.com/cryptocost/cryptocost/result"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["checkcharts"] = checkCharts
	scriptCmds["opensslserver"] = opensslServer
}

// checkcharts FILE...: the runs in the files (run JSON) light up every
// chart builder, and every chart they draw passes the readability rules
// (report.Chart.Check: log axes where values span more than two decades,
// at most 12 legend entries, unique labels, titles that fit).
func checkCharts(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: checkcharts FILE...")
	}
	var runs []*result.Run
	for _, a := range args {
		rs, err := result.ReadJSON(strings.NewReader(ts.ReadFile(a)))
		if err != nil {
			ts.Fatalf("%s: %v", a, err)
		}
		runs = append(runs, rs...)
	}
	charts, absent, err := report.BuildAll(report.NewInput(runs...))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	var problems []string
	for _, b := range absent {
		problems = append(problems, fmt.Sprintf("builder %s drew nothing: it needs %s", b.Name, b.Expects))
	}
	for _, c := range charts {
		if err := c.Check(); err != nil {
			problems = append(problems, err.Error())
		}
	}
	ts.Logf("checkcharts: %d charts from %d runs, %d problems", len(charts), len(runs), len(problems))
	if (len(problems) == 0) == neg {
		ts.Fatalf("charts:\n%s", strings.Join(problems, "\n"))
	}
}

// opensslserver NAME: start `openssl s_server` (Debian openssl) on a
// loopback port with a fresh P-256 certificate for the rest of the script,
// and put its HOST:PORT in $NAME. A real, independent TLS server for the
// probe to profile.
func opensslServer(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: opensslserver NAME")
	}
	bin, err := exec.LookPath("openssl")
	if err != nil {
		ts.Fatalf("the openssl command is needed: install Debian's openssl (./scripts/test does, from scripts/deps/tls.txt)")
	}
	dir := filepath.Join(ts.Getenv("WORK"), "openssl-server")
	ts.Check(os.MkdirAll(dir, 0o755))
	key, cert := filepath.Join(dir, "key.pem"), filepath.Join(dir, "cert.pem")
	gen := exec.Command(bin, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
		"-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost")
	if out, err := gen.CombinedOutput(); err != nil {
		ts.Fatalf("openssl req: %v\n%s", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := exec.CommandContext(ctx, bin, "s_server", "-accept", "127.0.0.1:0", "-cert", cert, "-key", key, "-www")
	stdout, err := srv.StdoutPipe()
	ts.Check(err)
	srv.Stderr = srv.Stdout
	if err := srv.Start(); err != nil {
		cancel()
		ts.Fatalf("openssl s_server: %v", err)
	}
	ts.Defer(func() {
		cancel()
		srv.Wait()
	})
	// s_server prints "ACCEPT 127.0.0.1:PORT" once it listens (OpenSSL 3).
	accept := regexp.MustCompile(`^ACCEPT (127\.0\.0\.1:\d+)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		said := false
		for sc.Scan() { // read on to the end, so s_server never blocks writing
			if m := accept.FindStringSubmatch(sc.Text()); m != nil && !said {
				found <- m[1]
				said = true
			}
		}
		close(found)
	}()
	select {
	case addr, ok := <-found:
		if !ok {
			ts.Fatalf("openssl s_server exited without listening")
		}
		ts.Setenv(args[0], addr)
	case <-time.After(60 * time.Second):
		ts.Fatalf("openssl s_server did not say where it listens within a minute")
	}
}

// figureBuilders are the builders whose figures a report page holds, from
// the data-builder attribute of each <figure> in the DOM Chromium rendered,
// counting only figures with a drawn <svg> (one with paths in it).
func figureBuilders(dom string) []string {
	var out []string
	figures := regexp.MustCompile(`(?s)<figure[^>]*data-builder="([^"]+)"[^>]*>(.*?)</figure>`)
	for _, m := range figures.FindAllStringSubmatch(dom, -1) {
		if strings.Contains(m[2], "<svg") && strings.Contains(m[2], "<path") && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}
