package costing_test

import (
	"os/exec"
	"strings"
	"testing"
)

// runners are the packages that measure or simulate: they record work and
// traces and leave pricing to this package (docs/ARCHITECTURE.md).
var runners = []string{"./bench", "./tlslab", "./probe", "./mcu", "./scenario/..."}

// forbidden are the import paths no runner may depend on, even indirectly:
// the costing stage and the device profiles it prices on. Instruments
// such as energy/meter are measurement, and allowed.
var forbidden = []string{
	"github.com/cryptocost/cryptocost/costing",
	"github.com/cryptocost/cryptocost/device",
}

// TestRunnersDoNotPrice: `go list -deps` of every runner holds no costing
// or device package. Fast tier (go list reads the module, builds nothing).
func TestRunnersDoNotPrice(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	for _, r := range runners {
		cmd := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", r)
		cmd.Dir = ".."
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", r, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps %s listed %d packages: %q", r, len(deps), deps)
		}
		for _, d := range deps {
			for _, f := range forbidden {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s depends on %s: runners record work and traces; the costing stage prices them", r, d)
				}
			}
		}
	}
}
