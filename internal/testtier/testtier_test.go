package testtier

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The rule itself, run in a child test process so a skip and a failure can
// be observed: a missing tool fails naming the package in a full run, and
// is skipped under -short. Fast tier: it runs this test binary twice.
func TestRequireTool(t *testing.T) {
	if os.Getenv("TESTTIER_CHILD") != "" {
		RequireTool(t, "no-such-tool-cryptocost", "no-such-package")
		t.Log("reached past RequireTool")
		return
	}
	for _, tc := range []struct {
		short bool
		want  string
		fails bool
	}{
		{false, "install the Debian package no-such-package", true},
		{true, "full tier (runs no-such-tool-cryptocost): skipped with -short", false},
	} {
		args := []string{"-test.run=^TestRequireTool$", "-test.v"}
		if tc.short {
			args = append(args, "-test.short")
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "TESTTIER_CHILD=1")
		out, err := cmd.CombinedOutput()
		if (err != nil) != tc.fails || !strings.Contains(string(out), tc.want) || strings.Contains(string(out), "reached past") {
			t.Errorf("short=%v: err %v, output:\n%s\nwant %q", tc.short, err, out, tc.want)
		}
	}
}

func TestToolFindsWhatIsThere(t *testing.T) {
	if p := Tool(t, "go", "golang-go"); p == "" {
		t.Error("no path for go, which runs this test")
	}
}
