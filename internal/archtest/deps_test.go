package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// The runners record work and traces; the costing stage prices them
// afterwards (docs/ARCHITECTURE.md, docs/energy.md). A runner that
// imported costing or a device profile could price inline and give a
// second answer to one question, so none may, directly or through
// another package. Instruments (energy/meter) are measurement, and allowed.
var (
	runners   = []string{"./bench", "./tlslab", "./probe", "./mcu", "./scenario/..."}
	forbidden = []string{"github.com/cryptocost/cryptocost/costing", "github.com/cryptocost/cryptocost/device"}
)

// TestRunnersImportNoCosting asks `go list -deps` for each runner's
// dependencies and fails naming the runner, the forbidden package and the
// path that brings it in.
//
// Tier: fast (the go command only, which every test run has).
func TestRunnersImportNoCosting(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	for _, pkg := range runners {
		// One line per package: its import path, then its direct imports.
		out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../"+strings.TrimPrefix(pkg, "./")).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		importers := map[string][]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			for _, imp := range f[1:] {
				importers[imp] = append(importers[imp], f[0])
			}
		}
		for _, bad := range forbidden {
			if by, ok := importers[bad]; ok {
				t.Errorf("%s depends on %s (imported by %s): runners record work and traces; price them with package costing in cmd/cryptocost", pkg, bad, strings.Join(by, ", "))
			}
		}
	}
}
