package result

import (
	"fmt"
	"os"
)

// ReadRunFile reads the one run of a results file written with --format
// json: the run a command reads --from (energy battery's reference, a run
// to price). A file of several runs is refused.
func ReadRunFile(name string) (*Run, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	defer fh.Close()
	runs, err := ReadJSON(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (want a cryptocost run written with --format json)", name, err)
	}
	if len(runs) != 1 {
		return nil, fmt.Errorf("%s holds %d runs: give a file with one", name, len(runs))
	}
	return runs[0], nil
}
