package result

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Stamp records what made run: tool and the command line args (their
// secrets redacted by the caller), and when it finished if its runner
// did not say.
func Stamp(run *Run, tool Tool, args []string) {
	run.Tool, run.Command = tool, args
	if run.Finished.IsZero() {
		run.Finished = time.Now().UTC()
	}
}

// StatusError is what run's status says went wrong: for an interrupted
// run how many results it wrote (noun names them with their verb,
// "results measured" when empty: "interrupted: wrote the 3 results
// measured so far"), for a failed one its errors, prefixed by failed when
// given ("scenario sensor failed: ..."); nil for any other status.
func StatusError(run *Run, noun, failed string) error {
	switch run.Status {
	case Interrupted:
		return fmt.Errorf("interrupted: wrote the %d %s so far", len(run.Results), cmp.Or(noun, "results measured"))
	case Failed:
		msg := strings.Join(run.Errors, "\n  ")
		if failed != "" {
			msg = failed + ": " + msg
		}
		return errors.New(msg)
	}
	return nil
}
