package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestEnergyDocExamples runs the ```console examples of docs/energy.md as
// a user would and requires every output line the page shows: the worked
// examples there depend only on the device profiles, so the page and the
// tool cannot drift apart. A line ending in "…" is abbreviated: the text
// before the "…" must appear. Lines starting "cryptocost:" are errors, on
// stderr, and their command must fail.
//
// Tier: fast (profiles only: no simulator, peer or network).
func TestEnergyDocExamples(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "energy.md"))
	if err != nil {
		t.Fatal(err)
	}
	script, n := consoleScript(string(data))
	if n == 0 {
		t.Fatal("docs/energy.md has no ```console example: the worked examples lost their fences")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "energy-doc.txtar"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:  dir,
		Cmds: scriptCmds,
		Condition: func(cond string) (bool, error) {
			return scriptConditions[cond], nil
		},
		Setup: func(env *testscript.Env) error {
			for _, f := range scriptSetups {
				if err := f(env); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// consoleScript turns a page's ```console blocks ("$ cryptocost ARGS"
// followed by the output shown) into a testscript, and counts the
// commands.
func consoleScript(page string) (string, int) {
	var out strings.Builder
	n := 0
	type command struct {
		args string
		want []string
	}
	var cmds []command
	in := false
	for _, line := range strings.Split(page, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```console":
			in = true
		case in && strings.TrimSpace(line) == "```":
			in = false
		case in && strings.HasPrefix(line, "$ cryptocost "):
			cmds = append(cmds, command{args: strings.TrimPrefix(line, "$ ")})
		case in && len(cmds) > 0:
			cmds[len(cmds)-1].want = append(cmds[len(cmds)-1].want, line)
		}
	}
	for _, c := range cmds {
		n++
		fails := false
		for _, w := range c.want {
			if strings.HasPrefix(w, "cryptocost: ") {
				fails = true
			}
		}
		if fails {
			out.WriteString("! ")
		}
		out.WriteString("exec " + c.args + "\n")
		for _, w := range c.want {
			text, _, _ := strings.Cut(w, "…")
			text = strings.TrimSpace(text)
			if text == "" {
				continue
			}
			stream := "stdout"
			if strings.HasPrefix(text, "cryptocost: ") {
				stream = "stderr"
			}
			out.WriteString(stream + " '" + strings.ReplaceAll(regexp.QuoteMeta(text), "'", "''") + "'\n")
		}
	}
	return out.String(), n
}
