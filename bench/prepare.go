package bench

import "github.com/cryptocost/cryptocost/catalog"

// Prepare checks a bench run's settings as given on a command line and
// plans it, before any work: sizes and docs are the --sizes and
// --doc-sizes strings (such as "16", "1k"), parsed into opts; cfg is
// validated and takes opts.Quick.
func Prepare(opts *Options, cfg *RunConfig, sizes, docs []string) (*Plan, error) {
	var err error
	if opts.Sizes, err = catalog.ParseSizes(sizes); err != nil {
		return nil, err
	}
	if opts.DocSizes, err = catalog.ParseSizes(docs); err != nil {
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
