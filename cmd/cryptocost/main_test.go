package main

import (
	"bytes"
	"fmt"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/perf/benchfmt"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cryptocost": func() { os.Exit(Main()) },
	})
}

// scriptCmds are the custom commands test scripts may use. A feature's
// _test.go file adds its own in an init function.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"checkjson":    checkJSON,
	"checkgobench": checkGobench,
	"sleep":        sleep,
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

// sleep DURATION: wait, for scripts that signal a background command.
func sleep(ts *testscript.TestScript, neg bool, args []string) {
	d, err := time.ParseDuration(args[0])
	if err != nil {
		ts.Fatalf("sleep: %v", err)
	}
	time.Sleep(d)
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
