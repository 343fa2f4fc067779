package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/report"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["checkhtml"] = checkHTML
	scriptCmds["checkimage"] = checkImage
	// Every script gets a results store of its own, in its work
	// directory, where commands save runs by default.
	scriptSetups = append(scriptSetups, func(env *testscript.Env) error {
		env.Setenv("XDG_DATA_HOME", filepath.Join(env.WorkDir, ".local", "share"))
		return nil
	})
}

// chromiumFlags start a headless Chromium that talks to no one: no GPU, no
// QUIC, no background networking, component updates or sync, a fresh
// profile per run.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
	"--enable-logging=stderr", "--v=0", "--virtual-time-budget=1000"}

// consoleLine is how Chromium logs a page's console messages with
// --enable-logging=stderr: `[pid:tid:time:INFO:CONSOLE:1] "msg", source: …`
// (older builds: CONSOLE(1)). Uncaught exceptions and failed loads are
// console messages too.
var consoleLine = regexp.MustCompile(`:CONSOLE[:(]\d+`)

// checkhtml FILE MIN-SVG [all-builders]: opens FILE in headless Chromium
// (Debian chromium; scripts/test installs it), and checks that the
// rendered DOM holds at least MIN-SVG <svg> elements and the page wrote
// nothing to the console (the report has no script, so any console
// message — an error, a failed load — is a fault). With all-builders,
// every registered chart builder has a figure with a drawn <svg> in the
// rendered page. Keeps a screenshot as a test artifact in
// $CRYPTOCOST_ARTIFACTS, else $TMPDIR/cryptocost-artifacts.
func checkHTML(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 && (len(args) != 3 || args[2] != "all-builders") {
		ts.Fatalf("usage: checkhtml FILE MIN-SVG [all-builders]")
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("MIN-SVG %q: %v", args[1], err)
	}
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		ts.Fatalf("headless Chromium is needed to check the report: install Debian's chromium (./scripts/test does, from scripts/deps/report.txt)")
	}
	page := "file://" + ts.MkAbs(args[0])
	run := func(name string, extra ...string) (stdout, stderr string) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		profile := filepath.Join(ts.Getenv("WORK"), "chromium-"+name)
		argv := append(append(append([]string{}, chromiumFlags...), "--user-data-dir="+profile), extra...)
		cmd := exec.CommandContext(ctx, browser, append(argv, page)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Env = append(os.Environ(), "HOME="+profile)
		if err := cmd.Run(); err != nil {
			ts.Fatalf("chromium %s: %v\n%s", name, err, errb.String())
		}
		return out.String(), errb.String()
	}
	dom, stderr := run("dom", "--dump-dom")
	var console []string
	for _, line := range strings.Split(stderr, "\n") {
		if consoleLine.MatchString(line) {
			console = append(console, line)
		}
	}
	svgs := strings.Count(dom, "<svg")

	artifacts := os.Getenv("CRYPTOCOST_ARTIFACTS")
	if artifacts == "" {
		artifacts = filepath.Join(os.TempDir(), "cryptocost-artifacts")
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		ts.Fatalf("%v", err)
	}
	shot := filepath.Join(artifacts, fmt.Sprintf("%s-%s.png", strings.TrimSuffix(filepath.Base(args[0]), filepath.Ext(args[0])), time.Now().UTC().Format("20060102T150405")))
	run("screenshot", "--window-size=1280,4000", "--screenshot="+shot)
	blank, err := blankPNG(shot)
	if err != nil {
		ts.Fatalf("screenshot %s: %v", shot, err)
	}
	ts.Logf("checkhtml %s: %d <svg> elements, %d console messages, screenshot %s", args[0], svgs, len(console), shot)

	var undrawn []string
	if len(args) == 3 {
		drawn := figureBuilders(dom)
		for _, b := range report.Builders() {
			if !slices.Contains(drawn, b.Name) {
				undrawn = append(undrawn, b.Name)
			}
		}
		ts.Logf("checkhtml %s: figures from builders %s", args[0], strings.Join(drawn, ", "))
	}
	ok := svgs >= want && len(console) == 0 && !blank && len(undrawn) == 0
	if ok == neg {
		ts.Fatalf("%s: %d <svg> elements (want at least %d), blank screenshot %v, builders without a drawn figure %v, console messages:\n%s",
			args[0], svgs, want, blank, undrawn, strings.Join(console, "\n"))
	}
}

// blankPNG reports whether the image at path is one colour throughout.
func blankPNG(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return false, err
	}
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			if !sameColor(img.At(x, y), first) {
				return false, nil
			}
		}
	}
	return true, nil
}

func sameColor(a, b interface{ RGBA() (r, g, b, a uint32) }) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// checkimage FILE png|svg: FILE is a PNG that decodes to a non-blank
// image, or an SVG that is well-formed XML with an <svg> root.
func checkImage(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: checkimage FILE png|svg")
	}
	path := ts.MkAbs(args[0])
	var err error
	switch args[1] {
	case "png":
		var blank bool
		if blank, err = blankPNG(path); err == nil && blank {
			err = errors.New("blank image")
		}
	case "svg":
		err = wellFormedSVG(path)
	default:
		ts.Fatalf("checkimage: want png or svg, not %q", args[1])
	}
	if (err == nil) == neg {
		ts.Fatalf("%s as %s: %v", args[0], args[1], err)
	}
}

func wellFormedSVG(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		return fmt.Errorf("root element %q, want svg", root)
	}
	return nil
}
