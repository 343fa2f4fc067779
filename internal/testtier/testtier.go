// Package testtier says which tier a test belongs to, in one place, so
// every package follows the same rule (docs/testing.md):
//
//   - The fast tier, `go test -short ./...`, runs in minutes on a laptop:
//     no simulators, emulators, cross-builds, peer processes or browsers,
//     and nothing that takes more than a couple of seconds.
//   - The full tier, `./scripts/test`, runs everything. A tool it needs
//     that is missing is a failure naming the Debian package that provides
//     it (scripts/deps/*.txt lists them; ./scripts/test installs them),
//     never a silent skip.
//
// A test of the full tier starts with one of:
//
//	testtier.Slow(t, "simulates every kernel")            // full tier, no tool
//	path := testtier.RequireTool(t, "openssl", "openssl") // full tier, needs a tool
package testtier

import (
	"os/exec"
	"testing"
)

// Slow marks t as a full-tier test: under -short it is skipped, saying
// why (what makes it slow).
func Slow(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("full tier (%s): skipped with -short", why)
	}
}

// RequireTool marks t as a full-tier test that runs the command cmd, and
// returns cmd's path. Under -short t is skipped; otherwise a missing cmd
// fails t, naming debianPkg, the Debian package that provides it.
func RequireTool(t testing.TB, cmd, debianPkg string) string {
	t.Helper()
	Slow(t, "runs "+cmd)
	return Tool(t, cmd, debianPkg)
}

// Tool returns cmd's path or fails t naming debianPkg. It does not skip
// under -short: for the rare fast test whose tool is part of the base
// system every machine has (scripts/deps/base.txt).
func Tool(t testing.TB, cmd, debianPkg string) string {
	t.Helper()
	p, err := exec.LookPath(cmd)
	if err != nil {
		t.Fatalf("%s is not installed: install the Debian package %s (./scripts/test installs what scripts/deps/*.txt lists)", cmd, debianPkg)
	}
	return p
}
