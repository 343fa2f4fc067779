package bench

import "github.com/cryptocost/cryptocost/scheme"

// Prepare checks a bench run's settings as given on a command line and
// plans it, before any work: sizes and docs are the --sizes and
// --doc-sizes strings (such as "16", "1k"), parsed into opts; cfg is
// validated and takes opts.Quick.
func Prepare(opts *Options, cfg *RunConfig, sizes, docs []string) (*Plan, error) {
	var err error
	if opts.Sizes, err = parseSizes(sizes); err != nil {
		return nil, err
	}
	if opts.DocSizes, err = parseSizes(docs); err != nil {
		return nil, err
	}
	if err := CheckSizes("--sizes", opts.Sizes); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Quick = opts.Quick
	return NewPlan(*opts)
}

// parseSizes parses a list of sizes with scheme.ParseSize (k = 1024); an
// empty list is nil (the default sizes). (catalog.ParseSizes, on branch
// thinB, is the same rule: this should call it once both are merged.)
func parseSizes(list []string) ([]int, error) {
	var out []int
	for _, s := range list {
		n, err := scheme.ParseSize(s)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
