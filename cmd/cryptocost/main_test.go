package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cryptocost/cryptocost/internal/pgtest"
	"github.com/cryptocost/cryptocost/result"
	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/perf/benchfmt"
)

func TestMain(m *testing.M) {
	testscript.Main(withPostgres{m}, map[string]func(){
		"cryptocost": func() { os.Exit(Main()) },
	})
}

// withPostgres runs the tests, then stops the PostgreSQL server a test may
// have started (internal/pgtest: one per test binary).
type withPostgres struct{ m *testing.M }

func (w withPostgres) Run() int {
	code := pgtest.Main(w.m)
	if crossDir != "" {
		os.RemoveAll(crossDir) // the cross-built binaries (crossBuild)
	}
	return code
}

// scriptConditions are the [conditions] test scripts may test; a
// feature's _test.go file adds its own. [postgres]: the script runs with
// $CRYPTOCOST_DB naming a PostgreSQL store (TestScriptsPostgres).
var scriptConditions = map[string]bool{"postgres": false}

// scriptCmds are the custom commands test scripts may use. A feature's
// _test.go file adds its own in an init function.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"checkjson":    checkJSON,
	"checkgobench": checkGobench,
	"waitfor":      waitFor,
}

// scriptSetups prepare a script's environment (a server to talk to, a
// fixture file); a feature's _test.go file adds its own.
var scriptSetups []func(env *testscript.Env) error

// TestScripts runs the CLI as a user would, from testdata/script/*.txtar
// (the style of age's cmd/age/testdata).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script",
		Cmds: scriptCmds,
		Condition: func(cond string) (bool, error) {
			v, ok := scriptConditions[cond]
			if !ok {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			return v, nil
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

// checkjson FILE STATUS [MIN-RESULTS]: FILE is a valid cryptocost run with
// that status and at least MIN-RESULTS results, each with metrics or an error.
func checkJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: checkjson FILE STATUS [MIN-RESULTS]")
	}
	data := ts.ReadFile(args[0])
	runs, err := result.ReadJSON(strings.NewReader(data))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	// Every run a command writes matches the shipped JSON Schema.
	if err := validateRunSchema([]byte(data)); err != nil {
		ts.Fatalf("%s does not match result/run.schema.json: %v", args[0], err)
	}
	run := runs[0]
	minResults := 1
	if len(args) > 2 {
		minResults, _ = strconv.Atoi(args[2])
	}
	ok := string(run.Status) == args[1] && len(run.Results) >= minResults
	if ok == neg {
		ts.Fatalf("%s: status %s with %d results; want status %s with at least %d", args[0], run.Status, len(run.Results), args[1], minResults)
	}
	for _, r := range run.Results {
		if m := r.Metric("time"); r.Error == "" && m != nil && m.Label == result.Measured && len(m.Samples) == 0 {
			ts.Fatalf("%s: %s has no raw samples", args[0], r.Subject.Name)
		}
	}
}

var runSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(result.JSONSchema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("run.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("run.schema.json")
})

func validateRunSchema(data []byte) error {
	sch, err := runSchema()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// checkgobench FILE N: FILE parses with benchfmt (as benchstat reads it)
// into at least N results with ns/op values and no syntax errors.
func checkGobench(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: checkgobench FILE N")
	}
	want, _ := strconv.Atoi(args[1])
	r := benchfmt.NewReader(bytes.NewReader([]byte(ts.ReadFile(args[0]))), args[0])
	n := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			ts.Fatalf("%v", rec)
		case *benchfmt.Result:
			if _, ok := rec.Value("sec/op"); !ok {
				ts.Fatalf("%s has no ns/op value", rec.Name)
			}
			n++
		}
	}
	if (n >= want) == neg {
		ts.Fatalf("%d benchmark lines, want at least %d", n, want)
	}
}

// waitfor FILE REGEXP: wait until a line of FILE (a glob: the first file
// it matches) matches REGEXP. Scripts that signal a background command
// wait so for the event they need — a line of its event log
// (CRYPTOCOST_EVENT_LOG, see internal/progress), a row in its output —
// instead of sleeping and hoping the command got there on a loaded host.
// The poll's millisecond pause is the only sleep; the 10-minute bound is a
// hang guard (the command died, or never gets there).
func waitFor(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: waitfor FILE REGEXP")
	}
	re, err := regexp.Compile("(?m)" + args[1])
	if err != nil {
		ts.Fatalf("waitfor: %v", err)
	}
	deadline := time.Now().Add(10 * time.Minute)
	for ; time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		files, _ := filepath.Glob(ts.MkAbs(args[0]))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil && re.Match(data) {
				return
			}
		}
	}
	ts.Fatalf("waitfor: no line of %s matches %q after 10 minutes", args[0], args[1])
}

func init() {
	scriptCmds["checkperm"] = func(ts *testscript.TestScript, neg bool, args []string) {
		fi, err := os.Stat(ts.MkAbs(args[0]))
		if err != nil {
			ts.Fatalf("%v", err)
		}
		if got := fmt.Sprintf("%04o", fi.Mode().Perm()); (got == args[1]) == neg {
			ts.Fatalf("%s has mode %s, want %s", args[0], got, args[1])
		}
		if dn, err := os.Stat("/dev/null"); err != nil || dn.Mode()&os.ModeDevice == 0 {
			ts.Fatalf("/dev/null is no longer a device: %v %v", dn.Mode(), err)
		}
	}
}
