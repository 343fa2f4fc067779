package store

import (
	"context"
	"fmt"
	"io"
	"os"
)

// ImportRequest is the import and push commands: run files made
// elsewhere added to the store Open opens, Tags added to their runs;
// each run's outcome is said on out, the store on errOut.
type ImportRequest struct {
	// Open opens the store to write to, creating it if need be (Open of
	// the --db path); it is called once the arguments are checked.
	Open func(context.Context) (*Store, error)
	Tags []string
}

// Import is import: the files checked (CheckImports) before the store is
// opened, then each file's runs imported and tagged; the first failure
// stops.
func (r ImportRequest) Import(ctx context.Context, files []string, out, errOut io.Writer) error {
	if err := CheckImports(files, r.Tags); err != nil {
		return err
	}
	st, err := r.Open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, file := range files {
		if err := r.importFile(ctx, st, file, out); err != nil {
			return err
		}
	}
	fmt.Fprintf(errOut, "store: %s\n", st.Path())
	return nil
}

// importFile imports one file's runs into st and tags them.
func (r ImportRequest) importFile(ctx context.Context, st *Store, file string, out io.Writer) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	outcomes, err := st.Import(ctx, f, file)
	f.Close()
	if err != nil {
		return err
	}
	for _, o := range outcomes {
		if len(r.Tags) > 0 {
			if _, err := st.Tag(ctx, o.ID, r.Tags...); err != nil {
				return err
			}
		}
		if o.AlreadyStored {
			fmt.Fprintf(out, "%s: run %s is already in the store\n", file, o.ID)
		} else {
			fmt.Fprintf(out, "%s: imported run %s (%d results)\n", file, o.ID, o.Results)
		}
	}
	return nil
}

// Push is push: files, and the run files under directories (RunFiles),
// each imported in its own transaction (ImportFiles); a file that fails
// is said on errOut and the others go on, and the count of those that
// failed is the error.
func (r ImportRequest) Push(ctx context.Context, args []string, out, errOut io.Writer) error {
	files, err := RunFiles(args)
	if err != nil {
		return err
	}
	st, err := r.Open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	pushed, stored := 0, 0
	failed := st.ImportFiles(ctx, files, r.Tags, func(o FileOutcome) {
		if o.Err != nil {
			fmt.Fprintf(errOut, "cryptocost: %v\n", o.Err)
			return
		}
		for _, run := range o.Runs {
			if run.AlreadyStored {
				stored++
				fmt.Fprintf(out, "%s: run %s is already in the store\n", o.File, run.ID)
			} else {
				pushed++
				fmt.Fprintf(out, "%s: pushed run %s (%d results)\n", o.File, run.ID, run.Results)
			}
		}
	})
	fmt.Fprintf(errOut, "pushed %d runs to %s (%d already there)\n", pushed, st.Path(), stored)
	if failed > 0 {
		return fmt.Errorf("%d of %d files not pushed (above)", failed, len(files))
	}
	return nil
}
